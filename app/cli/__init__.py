"""The `doppel` command line, without Qt: one command table (`app.cli.commands`) that the
parser, the help and the packaged app's routing all read, and one module per command."""
