"""(being written) melee"""
from typing import Any

def withdraw(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError

def slide(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError

