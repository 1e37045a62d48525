"""Sessions as conversations: an agent's files assembled into what the model saw.

An agent keeps a session in one or more files: Claude Code a transcript whose records form a
tree (rewinds, edits and retries leave abandoned branches; a compaction restarts the chain),
plus one file per subagent; Codex a rollout per session, where a fork replays the history it
came from. :func:`load` reads files or folders and gives one :class:`Session` per session:

- ``messages``: the active conversation in order, the path from the newest record back to the
  first, with compaction summaries in place and the pieces of one response together;
- ``records``: every record, in file order, as decoded (``messages normalize`` shows them);
- ``branches``: each abandoned branch, with the record it forks at;
- ``subagents``: subagent sessions, under the id of the tool call that started each;
- ``compactions``, ``parent`` (the session a resume or fork came from), ``title``, ``cwd``,
  ``project``, ``started``/``ended``;
- ``usage``: each API call once, subagents included, copies made by a resume or a fork left to
  the session that made the calls, with a breakdown by model and by subagent.

What is agent-specific (where files live, how records link) comes from each agent's
:class:`~messages.adapters._sessions.SessionHook`; formats without one are read as linear
sessions (one file, records in order). :func:`find` reads the agents' own folders
(:func:`roots`: ``$CLAUDE_CONFIG_DIR`` or ``~/.claude``, ``$CODEX_HOME`` or ``~/.codex``);
:func:`pick` finds one session by its file, its id or a unique id prefix.

>>> import messages.sessions as sessions
>>> session = next(sessions.load("tests/fixtures/sessions/claude_rewind"))
>>> session.agent, session.title
('claude_code', 'Name a colour')
>>> [m.text for m in session.messages]
['Name a colour', 'Blue.', 'Name a fruit instead', 'Pear.']
>>> [(b.fork, [m.text for m in b.messages]) for b in session.branches]
[('u2', ['Name a fruit', 'Apple.'])]
"""

from __future__ import annotations

from ._load import find
from ._load import load
from ._load import pick
from ._load import roots
from ._model import Branch
from ._model import Compaction
from ._model import Session
from ._model import SessionUsage

__all__ = ["Branch", "Compaction", "Session", "SessionUsage", "find", "load", "pick", "roots"]
