"""Wire shapes several formats share."""
