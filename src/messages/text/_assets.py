"""The style sheet and scripts of the HTML pages, and the content security policy that pins them.

Both pages carry their CSS and JavaScript inline (no CDN, nothing fetched), and a
``Content-Security-Policy`` meta tag that allows exactly these two blocks (by their SHA-256)
and ``data:`` images, nothing else: even if a log string ever escaped the escaping, a script
or an event handler in it would not run, and no URL in a log is loaded when the page opens.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Final

__all__ = ["INDEX_SCRIPT", "PAGE_SCRIPT", "STYLE", "policy"]

STYLE: Final = """
:root{--bg:#fff;--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--card:#f6f8fa;--user:#ddf4ff;
--asst:#fff;--tool:#f6f8fa;--err:#cf222e;--errbg:#ffebe9;--add:#dafbe1;--del:#ffebe9;
--mark:#fff8c5;--cur:#ffd33d;--link:#0969da;--accent:#8250df}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#8d96a0;
--line:#30363d;--card:#161b22;--user:#0c2d4a;--asst:#0d1117;--tool:#161b22;--err:#ff7b72;
--errbg:#3c1618;--add:#12361f;--del:#4a1518;--mark:#5a4a00;--cur:#9e6a03;--link:#4493f8;
--accent:#a371f7}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,
"Segoe UI",Roboto,sans-serif;overflow-wrap:anywhere}
a{color:var(--link)}
.wrap{max-width:60rem;margin:0 auto;padding:0 .75rem 4rem}
header.top{padding:1rem 0 .5rem;border-bottom:1px solid var(--line)}
h1{font-size:1.3rem;margin:0 0 .4rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.3rem 0;
font-size:.9rem}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
.hint{color:var(--muted);font-size:.85rem}
nav.bar{position:sticky;top:0;z-index:5;background:var(--bg);border-bottom:1px solid var(--line);
padding:.4rem 0;display:flex;flex-wrap:wrap;gap:.4rem;align-items:center}
nav.bar input[type=search]{flex:1 1 12rem;min-width:8rem;padding:.3rem .5rem;font:inherit;
color:var(--fg);background:var(--card);border:1px solid var(--line);border-radius:6px}
button{font:inherit;font-size:.85rem;color:var(--fg);background:var(--card);
border:1px solid var(--line);border-radius:6px;padding:.2rem .55rem;cursor:pointer}
.count{color:var(--muted);font-size:.85rem;min-width:4rem}
label.toggle{font-size:.85rem;color:var(--muted)}
.turn{border:1px solid var(--line);border-radius:8px;margin:.8rem 0;padding:.5rem .75rem;
background:var(--asst)}
.turn.user{background:var(--user)}.turn.tool,.turn.system,.turn.developer{background:var(--tool)}
.turn.summary{border-style:dashed}
.head{display:flex;flex-wrap:wrap;gap:.2rem .7rem;align-items:baseline;font-size:.8rem;
color:var(--muted)}
.head .role{font-weight:600;color:var(--fg);font-size:.9rem}
.head a.anchor{color:var(--muted);text-decoration:none}
.md>:first-child{margin-top:.3rem}.md>:last-child{margin-bottom:.2rem}
.md pre,pre{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.5rem;
overflow-x:auto;font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;
white-space:pre-wrap;margin:.3rem 0}
code{font:.9em ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.md table{border-collapse:collapse}.md td,.md th{border:1px solid var(--line);padding:.2rem .4rem}
details{margin:.35rem 0}
details>summary{cursor:pointer;color:var(--muted);font-size:.85rem}
details.thinking>div{white-space:pre-wrap;font-style:italic;color:var(--muted);
border-left:3px solid var(--line);padding-left:.6rem}
.call{border-left:3px solid var(--accent);padding-left:.6rem;margin:.5rem 0}
.call .name{font-weight:600;font-family:ui-monospace,Menlo,Consolas,monospace}
.call .meta{color:var(--muted);font-size:.8rem}
.result.error>summary,.err{color:var(--err)}
.result.error pre{background:var(--errbg)}
pre.diff .a{background:var(--add);display:block}pre.diff .d{background:var(--del);display:block}
pre.diff .h{color:var(--muted);display:block}
figure{margin:.4rem 0}
.plain pre.prompt{background:none;border:0;padding:0;margin:.2rem 0;font:inherit;
white-space:pre-wrap}
img.inline{max-width:100%;height:auto;border:1px solid var(--line);border-radius:4px}
.subagent{border:1px solid var(--accent);border-radius:8px;padding:.2rem .6rem;margin:.5rem 0}
.subagent>summary{color:var(--accent);font-weight:600}
.event{font-size:.82rem;color:var(--muted);margin:.4rem 0;padding:.1rem .4rem}
.event.error{color:var(--err)}
.compact{border-top:2px dashed var(--accent);margin:1.2rem 0;padding-top:.3rem;
color:var(--accent);font-size:.85rem;font-weight:600}
.branch{display:none;border:1px dashed var(--muted);border-radius:8px;padding:.2rem .6rem;
margin:.6rem 0 .6rem 1rem}
body.show-branches .branch{display:block}
.branch>.bhead{font-size:.85rem;color:var(--muted);font-weight:600}
.forks{font-size:.8rem;color:var(--muted)}
mark{background:var(--mark);color:inherit}mark.current{background:var(--cur)}
table.sessions{border-collapse:collapse;width:100%;font-size:.9rem}
table.sessions th,table.sessions td{border-bottom:1px solid var(--line);padding:.3rem .4rem;
text-align:left;vertical-align:top}
table.sessions th{cursor:pointer;user-select:none;white-space:nowrap}
table.sessions td.num,table.sessions th.num{text-align:right;white-space:nowrap}
table.sessions td.nowrap{white-space:nowrap}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
@media (max-width:40rem){body{font-size:14px}.wrap{padding:0 .4rem 3rem}
.turn{padding:.4rem .5rem}.call{padding-left:.4rem}
table.sessions .wide{display:none}}
"""
"""The style sheet both pages share: light and dark from the system setting, phone widths."""

PAGE_SCRIPT: Final = """
(function(){
"use strict";
var main=document.querySelector("main"),q=document.getElementById("q"),
count=document.getElementById("count"),marks=[],at=-1,timer=0;
function clear(){marks.forEach(function(m){var p=m.parentNode;if(!p)return;
p.replaceChild(document.createTextNode(m.textContent),m);p.normalize();});marks=[];at=-1;}
function find(term){clear();if(term.length<2){count.textContent="";return;}
var low=term.toLowerCase(),walker=document.createTreeWalker(main,NodeFilter.SHOW_TEXT),
nodes=[],n;while((n=walker.nextNode()))nodes.push(n);
for(var i=0;i<nodes.length&&marks.length<5000;i++){var node=nodes[i],
text=node.nodeValue,lower=text.toLowerCase(),k=lower.indexOf(low);if(k<0)continue;
var frag=document.createDocumentFragment(),last=0;
while(k>=0&&marks.length<5000){frag.appendChild(document.createTextNode(text.slice(last,k)));
var m=document.createElement("mark");m.textContent=text.slice(k,k+term.length);
frag.appendChild(m);marks.push(m);last=k+term.length;k=lower.indexOf(low,last);}
frag.appendChild(document.createTextNode(text.slice(last)));
node.parentNode.replaceChild(frag,node);}
count.textContent=marks.length?"":"no match";if(marks.length)go(0);}
function reveal(el){for(var e=el;e&&e!==main;e=e.parentElement){
if(e.tagName==="DETAILS")e.open=true;
if(e.classList.contains("more")&&e.hidden){e.hidden=false;
var b=e.parentElement.nextElementSibling;if(b&&b.classList.contains("show-all"))b.remove();}
if(e.classList.contains("branch"))document.body.classList.add("show-branches");}
var t=document.getElementById("branches");if(t)t.checked=document.body.classList.contains(
"show-branches");}
function go(i){if(!marks.length)return;if(at>=0)marks[at].classList.remove("current");
at=(i+marks.length)%marks.length;var m=marks[at];m.classList.add("current");reveal(m);
m.scrollIntoView({block:"center"});count.textContent=(at+1)+" / "+marks.length;}
q.addEventListener("input",function(){clearTimeout(timer);
timer=setTimeout(function(){find(q.value);},150);});
q.addEventListener("keydown",function(e){if(e.key==="Enter"){e.preventDefault();
if(marks.length===0||at<0)find(q.value);else go(at+(e.shiftKey?-1:1));}});
document.getElementById("next").addEventListener("click",function(){go(at+1);});
document.getElementById("prev").addEventListener("click",function(){go(at-1);});
function all(open){main.querySelectorAll("details").forEach(function(d){d.open=open;});}
document.getElementById("open").addEventListener("click",function(){all(true);});
document.getElementById("close").addEventListener("click",function(){all(false);});
var br=document.getElementById("branches");if(br)br.addEventListener("change",function(){
document.body.classList.toggle("show-branches",br.checked);});
document.addEventListener("click",function(e){var b=e.target;
if(!(b instanceof Element)||!b.classList.contains("show-all"))return;
var more=b.previousElementSibling&&b.previousElementSibling.querySelector(".more");
if(more)more.hidden=false;b.remove();});
document.addEventListener("keydown",function(e){if(e.key==="/"&&document.activeElement!==q){
e.preventDefault();q.focus();}});
document.body.classList.add("ready");
if(window.performance&&performance.mark)performance.mark("view-ready");
})();
"""
"""The session page's script: search with highlights, fold all, show all, the branch toggle."""

INDEX_SCRIPT: Final = """
(function(){
"use strict";
var table=document.querySelector("table.sessions"),body=table.tBodies[0],
f=document.getElementById("filter"),shown=document.getElementById("shown");
function value(row,i,num){var c=row.cells[i],v=c.getAttribute("data-v");
if(v===null)v=c.textContent;return num?parseFloat(v)||0:v.toLowerCase();}
table.querySelectorAll("th").forEach(function(th,i){th.addEventListener("click",function(){
var num=th.classList.contains("num"),asc=th.getAttribute("aria-sort")!=="ascending";
table.querySelectorAll("th").forEach(function(o){o.removeAttribute("aria-sort");});
th.setAttribute("aria-sort",asc?"ascending":"descending");
var rows=Array.prototype.slice.call(body.rows);rows.sort(function(a,b){
var x=value(a,i,num),y=value(b,i,num);return (x<y?-1:x>y?1:0)*(asc?1:-1);});
rows.forEach(function(r){body.appendChild(r);});});});
function filter(){var t=f.value.toLowerCase(),n=0;
Array.prototype.forEach.call(body.rows,function(r){
var ok=!t||r.textContent.toLowerCase().indexOf(t)>=0;r.hidden=!ok;if(ok)n++;});
shown.textContent=n+" of "+body.rows.length;}
f.addEventListener("input",filter);filter();
document.body.classList.add("ready");
})();
"""
"""The index page's script: sort by a column (click its heading), filter rows by their text."""


def _sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def policy(script: str) -> str:
    """The ``Content-Security-Policy`` for a page with :data:`STYLE` and ``script`` inline.

    Nothing may load from anywhere (``default-src 'none'``) except ``data:`` images; only
    these exact style and script blocks apply (by hash), so no inline handler or injected
    script could run.
    """
    return (
        "default-src 'none'; img-src data:; "
        f"style-src 'sha256-{_sha256(STYLE)}'; script-src 'sha256-{_sha256(script)}'; "
        "base-uri 'none'; form-action 'none'"
    )
