"""The Compare tab's side-by-side view: the two text panes, the results panel, the blocks and
shared-phrases tabs, and the marks and tooltips they draw (computed without Qt in
`app.gui.compare.marks`)."""
