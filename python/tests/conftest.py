"""Shared fixtures: the datasets folder ($SHARED_DATASETS, ../shared/datasets
next to the checkout, or /work/shared/datasets), and a plain Python BFS (with
path counts) that the library's results are checked against."""
import collections
import os
import pathlib

import numpy as np
import pytest


def _datasets():
    here = pathlib.Path(__file__).resolve().parents[2]
    for d in (os.environ.get("SHARED_DATASETS"), here.parent / "shared" / "datasets",
              "/work/shared/datasets"):
        if d and pathlib.Path(d, "BFS_REFERENCE.tsv").is_file():
            return pathlib.Path(d)
    return None


@pytest.fixture(scope="session")
def datasets():
    d = _datasets()
    if d is None:
        pytest.skip("no shared datasets folder (../shared/datasets)")
    return d


def plain_counts(offsets, columns, root):
    """Levels (-1 unreached) and shortest-path counts (Python ints: exact) by a
    textbook queue BFS over a CSR."""
    n = len(offsets) - 1
    level = np.full(n, -1, dtype=np.int64)
    sigma = [0] * n
    level[root], sigma[root] = 0, 1
    queue = collections.deque([root])
    while queue:
        u = queue.popleft()
        for v in columns[offsets[u]:offsets[u + 1]]:
            if level[v] < 0:
                level[v] = level[u] + 1
                queue.append(v)
            if level[v] == level[u] + 1:
                sigma[v] += sigma[u]
    return level, sigma


def plain_bfs(offsets, columns, root):
    """Levels by a textbook queue BFS over a CSR (-1 unreached)."""
    return plain_counts(offsets, columns, root)[0]
