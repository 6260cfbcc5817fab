"""(being written) attack"""
from typing import Any

def ruling(*args: Any, **kwargs: Any) -> Any:
    raise NotImplementedError

