"""Tables of the scoring app: matches, deals, protocol versions. Built in a later issue."""
