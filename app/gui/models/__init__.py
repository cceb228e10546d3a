"""The app's table models: one `RowTableModel` shape, named columns and roles, tested without
a window."""
