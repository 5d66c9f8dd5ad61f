"""boxbfs.bfs against a plain Python BFS: generated graphs, arrays, SciPy
matrices, edge-list files, and the shared datasets with their reference answers."""
import numpy as np
import pytest

import boxbfs
from conftest import plain_bfs


def check_tree(g, r):
    off, col = g.csr()
    want = plain_bfs(off, col, r.root)
    assert r.levels.dtype == np.int32 and r.parents.dtype == np.int64
    assert np.array_equal(r.levels.astype(np.int64), want)
    reached = want >= 0
    assert np.all(r.parents[~reached] == -1)
    assert r.parents[r.root] == r.root
    # every tree edge joins levels L-1 and L and is an arc of the graph
    for v in np.flatnonzero(reached):
        if v == r.root:
            continue
        p = r.parents[v]
        assert want[p] == want[v] - 1
        assert v in col[off[p]:off[p + 1]]
    info = boxbfs.validate(g, r.root, r.parents, r.levels)
    assert info["reached"] == int(reached.sum()) == r.report["reached"]


@pytest.mark.parametrize("devices", [1, 2, 3])
def test_kron(devices):
    with boxbfs.Graph.load("kron:10") as g:
        assert g.vertices == 1024 and not g.directed
        r = boxbfs.bfs(g, 5, devices=devices, backend="cpu")
        check_tree(g, r)
        rep = r.report
        assert rep["devices"] == devices
        assert rep["link_bytes"].shape == (devices, devices)
        assert rep["link_bytes"].sum() == rep["total_bytes"]
        assert sum(p["bytes"] for p in rep["phases"].values()) == rep["total_bytes"]
        assert sum(lv["bytes"] for lv in rep["level_reports"]) <= rep["total_bytes"]
        if devices > 1:
            assert rep["total_bytes"] > 0
        else:
            assert rep["total_bytes"] == 0


@pytest.mark.parametrize("devices", [1, 2])
def test_kron_on_devices(devices):
    # the devices build the host generator's graph: each vertex's level as on
    # the graph built on the host, the arcs once the engine built them
    with boxbfs.Graph.load("kron:10") as g, boxbfs.Graph.kron_on_devices("kron:10") as d:
        assert d.vertices == g.vertices and d.arcs == 0
        a = boxbfs.bfs(g, 5, devices=devices, backend="cpu")
        b = boxbfs.bfs(d, 5, devices=devices, backend="cpu")
        assert np.array_equal(a.levels, b.levels)
        assert d.arcs == g.arcs
        with pytest.raises(boxbfs.BoxbfsError):
            boxbfs.validate(d, 5, b.parents, b.levels)
    with pytest.raises(boxbfs.BoxbfsError):
        boxbfs.Graph.kron_on_devices("graph.mtx")


@pytest.mark.parametrize("stripes", [1, 3])
def test_relabel_by_degree(stripes):
    with boxbfs.Graph.load("kron:10") as g, g.relabel_by_degree(stripes) as r:
        assert (r.vertices, r.arcs, r.input_edges) == (g.vertices, g.arcs, g.input_edges)
        off, _ = r.csr()
        if stripes == 1:   # degrees never increase along the new ids
            assert np.all(np.diff(np.diff(off)) <= 0)
        root = r.internal_id(g.external_id(5))
        a = boxbfs.bfs(g, 5, backend="cpu")
        b = boxbfs.bfs(r, root, devices=stripes, backend="cpu")
        check_tree(r, b)
        # each vertex's level, through its external id
        ext = [r.external_id(v) for v in range(r.vertices)]
        assert all(b.levels[v] == a.levels[g.internal_id(ext[v])] for v in range(r.vertices))
    with pytest.raises(boxbfs.InvalidArgument):
        boxbfs.Graph.load("kron:4").relabel_by_degree(0)


def test_arrays_path_graph():
    src = np.arange(9)
    g = boxbfs.Graph.from_edges(src, src + 1, 10)
    r = boxbfs.bfs(g, 0, devices=2, backend="cpu")
    assert list(r.levels) == list(range(10))
    assert list(r.parents) == [0] + list(range(9))
    r = boxbfs.bfs(g, 4, devices=3, backend="cpu", direction="top-down", max_depth=2)
    assert list(r.levels) == [-1, -1, 2, 1, 0, 1, 2, -1, -1, -1]


def test_directed_and_int32_ids():
    src = np.array([0, 1, 2], dtype=np.int32)
    dst = np.array([1, 2, 0], dtype=np.uint16)
    g = boxbfs.Graph.from_edges(src, dst, 4, directed=True)
    assert g.directed and g.input_edges == 3
    r = boxbfs.bfs(g, 1, devices=2, backend="cpu")
    assert list(r.levels) == [2, 0, 1, -1]


def test_scipy_matrix():
    sp = pytest.importorskip("scipy.sparse")
    rng = np.random.default_rng(7)
    m = sp.random(300, 300, density=0.01, random_state=rng, format="csr")
    m = m + m.T   # symmetric: undirected
    g = boxbfs.Graph.from_scipy(m)
    assert not g.directed
    check_tree(g, boxbfs.bfs(g, 0, devices=2, backend="cpu"))
    d = boxbfs.Graph.from_scipy(sp.random(200, 200, density=0.02, random_state=rng, format="coo"))
    assert d.directed
    check_tree(d, boxbfs.bfs(d, 3, devices=3, backend="cpu"))


def test_edge_list_file_roundtrip(tmp_path):
    g = boxbfs.Graph.load("kron:8")
    g.save(tmp_path / "k8.txt")
    g.save(tmp_path / "k8.bbcsr")
    for path in ("k8.txt", "k8.bbcsr"):
        h = boxbfs.Graph.load(tmp_path / path)
        root = h.internal_id(g.external_id(1))
        r = boxbfs.bfs(h, root, devices=2, backend="cpu")
        check_tree(h, r)
        assert r.report["reached"] == boxbfs.bfs(g, 1, backend="cpu").report["reached"]


def test_reference_matches_engine():
    g = boxbfs.Graph.load("kron:9:8:3")
    lv, par = boxbfs.reference_bfs(g, 2)
    r = boxbfs.bfs(g, 2, devices=4, backend="cpu", contract="atomic", wire="bitmap")
    assert np.array_equal(lv, r.levels)
    # the remote parents recomputed after the search: same levels and gather traffic
    k = boxbfs.bfs(g, 2, devices=4, backend="cpu", contract="atomic", wire="auto", parents="keep",
                   search_on="host")
    c = boxbfs.bfs(g, 2, devices=4, backend="cpu", contract="atomic", wire="auto",
                   parents="recompute")
    assert r.report["wire"] == "bitmap" and k.report["wire"] == "auto"
    assert k.report["strategy"] == "host-driven levels"
    # the search on the devices, which meet in each other's memory: the same
    # levels, each remote vertex sent with its parent, nothing gathered
    d = boxbfs.bfs(g, 2, devices=4, backend="cpu", contract="atomic", wire="auto")
    assert d.report["strategy"] == "device search across devices"
    assert np.array_equal(lv, d.levels)
    assert d.report["phases"]["parent_gather"]["bytes"] == 0
    # the devices' own time of the search: some where they ran it, none where the host did
    assert 0 < d.report["device_span_s"] <= d.report["time_s"]
    assert k.report["device_span_s"] == 0
    boxbfs.validate(g, 2, d.parents, d.levels)
    assert k.report["device_parents"] == ["keep"] * 4
    assert c.report["device_parents"] == ["recompute"] * 4
    assert np.array_equal(lv, c.levels)
    assert k.report["phases"] == c.report["phases"]
    boxbfs.validate(g, 2, c.parents, c.levels)


SMALL = ["chesapeake.mtx.gz", "delaunay_n10.mtx.gz", "delaunay_n12.mtx.gz",
         "facebook_combined.txt.gz", "wiki-Vote.txt.gz", "email-Enron.txt.gz"]


def reference_rows(datasets):
    rows = []
    for line in (datasets / "BFS_REFERENCE.tsv").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        f = line.split("\t")
        if f[0] in SMALL:
            rows.append((f[0], f[1], int(f[2]), int(f[3]), [int(x) for x in f[6].split(",")]))
    return rows


def test_shared_datasets(datasets):
    rows = reference_rows(datasets)
    assert rows, "no rows for the small datasets in BFS_REFERENCE.tsv"
    graphs = {}
    for name, interp, source, reached, counts in rows:
        key = (name, interp)
        if key not in graphs:
            graphs[key] = boxbfs.Graph.load(datasets / name, directed=interp == "directed")
        g = graphs[key]
        root = g.internal_id(source)
        r = boxbfs.bfs(g, root, devices=3, backend="cpu")
        check_tree(g, r)
        got = np.bincount(r.levels[r.levels >= 0])
        assert list(got) == counts, f"{name} {interp} from {source}"
        assert r.report["reached"] == reached
