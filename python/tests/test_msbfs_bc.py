"""Multi-source BFS, shortest-path counts and betweenness from Python,
checked against plain Python (a queue BFS, path counting, Brandes) on
generated graphs and arrays, and msbfs against BFS_REFERENCE.tsv on the
shared datasets; bad arguments raise before or from the library."""
import numpy as np
import pytest

import boxbfs
from boxbfs import _lib
from conftest import plain_bfs, plain_counts

SMALL = ["chesapeake.mtx.gz", "delaunay_n10.mtx.gz", "delaunay_n12.mtx.gz",
         "facebook_combined.txt.gz", "wiki-Vote.txt.gz", "email-Enron.txt.gz"]


def plain_brandes(offsets, columns, sources, directed, normalized):
    """Brandes' sums over sources, scaled as the library documents (networkx's rules)."""
    n = len(offsets) - 1
    bc = np.zeros(n)
    for s in sources:
        level, sigma = plain_counts(offsets, columns, s)
        order = sorted((v for v in range(n) if level[v] >= 0), key=lambda v: level[v])
        delta = [0.0] * n
        for v in reversed(order):
            for w in columns[offsets[v]:offsets[v + 1]]:
                if level[w] == level[v] + 1:
                    delta[v] += sigma[v] / sigma[w] * (1 + delta[w])
            if v != s:
                bc[v] += delta[v]
    scale = 1 / ((n - 1) * (n - 2)) if normalized and n > 2 else 1.0 if normalized or directed else 0.5
    if len(sources) < n:
        scale *= n / len(sources)
    return bc * scale


@pytest.mark.parametrize("devices", [1, 3])
def test_msbfs_matches_plain_bfs(devices):
    g = boxbfs.Graph.load("kron:9")
    off, col = g.csr()
    sources = np.array([v for v in range(g.n) if off[v + 1] > off[v]][:70])   # two groups of 64
    m = boxbfs.msbfs(g, sources, group_size=64, devices=devices, backend="cpu", validate=True)
    assert m.depths.shape == (70, g.n) and m.depths.dtype == np.int32
    for i, s in enumerate(sources):
        lv = plain_bfs(off, col, s)
        assert np.array_equal(m.depths[i], lv)
        reached = lv[lv >= 0]
        assert m.reached[i] == reached.size and m.eccentricity[i] == reached.max()
        assert m.sum_depth[i] == reached.sum()
        r = reached.size
        assert m.closeness[i] == pytest.approx((r - 1) / (g.n - 1) * (r - 1) / reached.sum())
    assert m.report["ngroups"] == 2 and len(m.report["devices"]) == devices
    assert sorted(m.report["order"]) == list(range(70))


def test_msbfs_max_depth_and_no_depths():
    g = boxbfs.Graph.from_edges([0, 1, 2, 3], [1, 2, 3, 4], 6)
    m = boxbfs.msbfs(g, [0, 4], max_depth=2, backend="cpu")
    assert list(m.depths[0]) == [0, 1, 2, -1, -1, -1]
    assert list(m.reached) == [3, 3] and list(m.eccentricity) == [2, 2]
    m = boxbfs.msbfs(g, np.array([5, 2], dtype=np.uint32), depths=False, backend="cpu")
    assert m.depths is None and list(m.reached) == [1, 5] and m.closeness[0] == 0


def test_msbfs_shared_datasets(datasets):
    rows = {}
    for line in (datasets / "BFS_REFERENCE.tsv").read_text().splitlines():
        f = line.split("\t")
        if line.startswith("#") or len(f) < 7 or f[0] not in SMALL:
            continue
        rows.setdefault((f[0], f[1]), []).append(
            (int(f[2]), int(f[3]), int(f[4]), int(f[5]), [int(x) for x in f[6].split(",")]))
    assert rows, "no rows for the small datasets in BFS_REFERENCE.tsv"
    for (name, interp), refs in rows.items():
        g = boxbfs.Graph.load(datasets / name, directed=interp == "directed")
        sources = [g.internal_id(r[0]) for r in refs]
        m = boxbfs.msbfs(g, sources, devices=2, backend="cpu")
        for i, (_, reached, ecc, total, counts) in enumerate(refs):
            assert (m.reached[i], m.eccentricity[i], m.sum_depth[i]) == (reached, ecc, total), name
            assert list(np.bincount(m.depths[i][m.depths[i] >= 0])) == counts, name
        g.close()


@pytest.mark.parametrize("algorithm,devices", [("frontier", 1), ("frontier", 3), ("spmv", 1)])
def test_shortest_path_counts(algorithm, devices):
    g = boxbfs.Graph.load("kron:8")
    off, col = g.csr()
    root = int(np.argmax(np.diff(off)))
    c = boxbfs.shortest_path_counts(g, root, devices=devices, backend="cpu", algorithm=algorithm)
    level, sigma = plain_counts(off, col, root)
    assert not c.overflow and c.counts.dtype == np.uint64
    assert np.array_equal(c.levels, level)
    assert [int(x) for x in c.counts] == sigma
    assert c.report["reached"] == (level >= 0).sum()


def test_shortest_path_counts_overflow():
    # 41 rungs of 3 parallel paths: 3^41 > 2^64 paths to the last joint
    src, dst, joint, n = [], [], 0, 1
    for _ in range(41):
        for w in range(3):
            src += [joint, n + w]
            dst += [n + w, n + 3]
        joint, n = n + 3, n + 4
    g = boxbfs.Graph.from_edges(src, dst, n)
    c = boxbfs.shortest_path_counts(g, 0, devices=2, backend="cpu")
    assert c.overflow and c.counts.dtype == np.float64
    assert c.counts[joint] == pytest.approx(3.0 ** 41, rel=1e-12)
    assert c.counts_double[4] == 3


@pytest.mark.parametrize("normalized", [False, True])
def test_bc_exact_matches_brandes(normalized):
    g = boxbfs.Graph.load("kron:7")
    off, col = g.csr()
    b = boxbfs.bc(g, normalized=normalized, devices=2, backend="cpu")
    assert b.dtype == np.float64 and b.shape == (g.n,)
    assert np.allclose(b, plain_brandes(off, col, range(g.n), False, normalized), rtol=1e-9, atol=1e-12)


def test_bc_sampled_and_directed():
    g = boxbfs.Graph.from_edges([0, 1, 2, 0, 4], [1, 2, 3, 4, 3], 6, directed=True)
    off, col = g.csr()
    b = boxbfs.bc(g, sources=[0, 1], backend="cpu")
    assert np.allclose(b, plain_brandes(off, col, [0, 1], True, False))
    b = boxbfs.bc(g, sources=3, seed=7, backend="cpu")   # three random sources, scaled by 6/3
    assert b.shape == (6,) and np.all(b >= 0)


def test_bc_shared_dataset(datasets):
    g = boxbfs.Graph.load(datasets / "chesapeake.mtx.gz")
    off, col = g.csr()
    b = boxbfs.bc(g, normalized=True, devices=3, backend="cpu")
    assert np.allclose(b, plain_brandes(off, col, range(g.n), False, True), rtol=1e-9)


def test_bad_arguments():
    g = boxbfs.Graph.from_edges([0, 1], [1, 2], 3)
    for sources in ([], np.array([0.0, 1.0]), np.array([[0, 1]]), ["0"], [True, False]):
        with pytest.raises(ValueError):
            boxbfs.msbfs(g, sources, backend="cpu")
        with pytest.raises(ValueError):
            boxbfs.bc(g, sources=sources, backend="cpu")
    for sources in ([0, 0], [0, 3], [-1]):   # the library's checks, its message
        with pytest.raises(boxbfs.InvalidArgument) as e:
            boxbfs.msbfs(g, sources, backend="cpu")
        assert e.value.status == _lib.ERR_INVALID_ARG and e.value.message
        with pytest.raises(boxbfs.InvalidArgument) as e:
            boxbfs.bc(g, sources=sources, backend="cpu")
        assert e.value.message
    with pytest.raises(boxbfs.InvalidArgument) as e:
        boxbfs.msbfs(g, [0], group_size=0, backend="cpu")
    assert "group size" in e.value.message
    for kwargs in ({"devices": 0}, {"devices": 1.5}, {"max_depth": "2"}, {"alpha": "x"},
                   {"backend": "quantum"}, {"validate": True, "depths": False}):
        with pytest.raises(ValueError):
            boxbfs.msbfs(g, [0], **dict({"backend": "cpu"}, **kwargs))
    for k in (0, 4, -1):
        with pytest.raises(ValueError):
            boxbfs.bc(g, sources=k, backend="cpu")
    for root in (3, -1, 1.0, None):
        with pytest.raises(ValueError):
            boxbfs.shortest_path_counts(g, root, backend="cpu")
    for kwargs in ({"algorithm": "magic"}, {"spmv": "dense"}, {"direction": "sideways"},
                   {"algorithm": "spmv", "devices": 2}, {"devices": 0}):
        with pytest.raises(ValueError):
            boxbfs.shortest_path_counts(g, 0, **dict({"backend": "cpu"}, **kwargs))
    with pytest.raises(ValueError):
        boxbfs.bc("not a graph")
    g.close()
    with pytest.raises(ValueError):
        boxbfs.msbfs(g, [0], backend="cpu")


def test_abi_new_options_layout():
    import ctypes
    o = _lib.MsbfsOptions()
    _lib.lib.boxbfs_msbfs_options_init(ctypes.byref(o))
    assert (o.backend, o.devices, o.group_size, o.groupby, o.groupby_p, o.groupby_q,
            o.max_depth, o.alpha) == (0, 1, 128, 1, 128, 128, -1, 4.0)
    s = _lib.SigmaOptions()
    _lib.lib.boxbfs_sigma_options_init(ctypes.byref(s))
    assert (s.backend, s.devices, s.algorithm, s.spmv, s.direction) == (0, 1, 0, 1, 0)
    assert s.switch_density == pytest.approx(0.10)
    b = _lib.BcOptions()
    _lib.lib.boxbfs_bc_options_init(ctypes.byref(b))
    assert (b.backend, b.devices, b.normalized) == (0, 1, 0)
