"""ipywidgets panels for fwwrules (import as ``fwwrules_widgets``)."""
