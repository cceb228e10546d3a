"""Everything a surface shows in words or files: the comparison's JSON, the batch's JSON and
CSV, the HTML report, the heatmap's order and colour bins, and the wording shared by the
window, the command line and the reports. The top layer of the engine."""
