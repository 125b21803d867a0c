"""What the benchmark drivers share: reading the one JSON line a benchmark or peer prints last."""

import json


def last_json(text, key, value):
    """The last line of `text` that is a JSON object with `key` == `value`, or None."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if obj.get(key) == value:
                return obj
    return None
