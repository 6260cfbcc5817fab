"""(being written) grid"""
from typing import Any

def grid_cover(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError

GRID_FORMAT = "fwwrules/grid@1"
def parse_grid(doc: Any) -> Any:
    raise NotImplementedError
