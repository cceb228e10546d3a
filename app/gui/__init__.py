"""The desktop app (PySide6, the `gui` extra): the application, the main window, settings,
theme, the crash dialog and the background tasks; `models/` holds the table models,
`compare/` the side-by-side view, `folder_check/` the Folder check tab.

Importing this package loads no Qt: `app.gui.application` does."""
