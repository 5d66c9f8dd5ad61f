"""boxbfs: multi-device breadth-first search from Python (libboxbfs through ctypes).

    g = boxbfs.Graph.from_edges(src, dst, n, directed=False)   # NumPy arrays
    g = boxbfs.Graph.from_scipy(matrix)                        # any SciPy sparse matrix
    g = boxbfs.Graph.load("graph.mtx.gz")                      # .mtx, SNAP, .bbcsr, .gz
    g = boxbfs.Graph.load("kron:12")                           # Graph500 generator
    r = boxbfs.bfs(g, root, devices=2, backend="cpu")
    r.levels, r.parents      # NumPy int32 / int64, -1 where unreached
    r.report                 # traffic report: bytes per phase, link, level
    m = boxbfs.msbfs(g, sources)               # many BFS at once: m.depths (sources x n), ...
    c = boxbfs.shortest_path_counts(g, root)   # c.levels, c.counts (uint64; float64 on overflow)
    b = boxbfs.bc(g, sources=None, normalized=True)   # betweenness, float64 per vertex

Vertex ids are the library's internal ids 0..n-1; Graph.internal_id /
Graph.external_id map those of the input file. Errors of the library raise
BoxbfsError (its .status and the library's message); bad arguments raise
InvalidArgument, which is also a ValueError.
"""
import ctypes
import numbers

import numpy as np

from . import _lib
from ._lib import lib

__all__ = ["Graph", "BfsResult", "MsbfsResult", "SigmaResult", "BoxbfsError", "InvalidArgument",
           "bfs", "msbfs", "shortest_path_counts", "bc", "reference_bfs", "validate", "version",
           "device_count"]


class BoxbfsError(RuntimeError):
    """A libboxbfs call failed: .status (boxbfs_status_t), .message (boxbfs_last_error())."""

    def __init__(self, status, message):
        self.status = status
        self.status_string = lib.boxbfs_status_string(status).decode()
        self.message = message
        super().__init__(f"{message} ({self.status_string})" if message else self.status_string)


class InvalidArgument(BoxbfsError, ValueError):
    """BOXBFS_ERR_INVALID_ARG, or an argument refused before the call."""


def _raise(status):
    message = lib.boxbfs_last_error().decode(errors="replace")
    cls = InvalidArgument if status == _lib.ERR_INVALID_ARG else BoxbfsError
    raise cls(status, message)


def _check(status):
    if status != _lib.OK:
        _raise(status)


def _bad(message):
    return InvalidArgument(_lib.ERR_INVALID_ARG, message)


def version():
    """The library's version ("0.1.0")."""
    return lib.boxbfs_version().decode()


def device_count(backend="cuda"):
    """Devices the backend can drive here (cuda: visible GPUs; cpu: 0, meaning any)."""
    return lib.boxbfs_backend_device_count(_enum("backend", backend))


def _names(function, count):
    return {function(i).decode(): i for i in range(count)}


# option values by name, as the CLI spells them (boxbfs bfs --help)
_ENUMS = {
    "backend": _names(lib.boxbfs_backend_name, 2),
    "contract": _names(lib.boxbfs_contract_name, 3),
    "visited": _names(lib.boxbfs_visited_name, 2),
    "parents": _names(lib.boxbfs_parents_name, 3),
    "search_on": _names(lib.boxbfs_search_on_name, 3),
    "wire": _names(lib.boxbfs_wire_name, 3),
    "exchange": _names(lib.boxbfs_exchange_name, 4),
    "expand": _names(lib.boxbfs_expand_name, 3),
    "direction": _names(lib.boxbfs_search_direction_name, 3),
    "algorithm": _names(lib.boxbfs_sigma_algorithm_name, 2),
    "spmv": _names(lib.boxbfs_spmv_name, 3),
}
_PHASES = [lib.boxbfs_phase_name(p).decode() for p in range(_lib.PHASE_COUNT)]


def _enum(kind, value):
    table = _ENUMS[kind]
    if isinstance(value, str) and value in table:
        return table[value]
    raise _bad(f"{kind} {value!r}: use one of {', '.join(sorted(table))}")


def _id_array(name, values):
    """A 1-D int64 array of integer ids; ValueError for floats, bools, objects, 2-D."""
    a = np.asarray(values)
    if a.ndim != 1:
        raise _bad(f"{name} must be a 1-D array, not {a.ndim}-D")
    if a.size and a.dtype.kind not in "iu":
        raise _bad(f"{name} must hold integers, not {a.dtype}")
    if a.dtype.kind == "u" and a.size and a.max() > np.iinfo(np.int64).max:
        raise _bad(f"{name} holds ids beyond int64")
    return np.ascontiguousarray(a, dtype=np.int64)


def _integer(name, value):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise _bad(f"{name} must be an integer, not {type(value).__name__}")
    return int(value)


def _padded(struct_type):
    """A zeroed struct_type with 1 KiB of room behind it: a later library that
    appends fields to a struct (boxbfs_engine_options_init writes all of its
    own) then writes into that room, not past this object; zeros are the
    documented "unset" of appended fields."""
    buf = (ctypes.c_char * (ctypes.sizeof(struct_type) + 1024))()
    return struct_type.from_buffer(buf)   # keeps buf alive


def _ptr64(a):
    return a.ctypes.data_as(_lib.c_int64_p)


def _ptr32(a):
    return a.ctypes.data_as(_lib.c_int32_p)


class Graph:
    """A graph in libboxbfs (CSR, internal ids 0..n-1). Close it, or use `with`."""

    def __init__(self, handle):
        self._h = ctypes.c_void_p(handle)

    @classmethod
    def from_edges(cls, src, dst, n, directed=False):
        """Edges src[i] -> dst[i] of ids in [0, n) (integer arrays of one length).
        Undirected graphs store both directions; self-loops and duplicates are
        dropped from the CSR but count as input edges (TEPS)."""
        s, d = _id_array("src", src), _id_array("dst", dst)
        if s.shape != d.shape:
            raise _bad(f"src and dst differ in length ({s.size} and {d.size})")
        n = _integer("n", n)
        h = ctypes.c_void_p()
        _check(lib.boxbfs_graph_from_edges(n, s.size, _ptr64(s), _ptr64(d), 1 if directed else 0,
                                           ctypes.byref(h)))
        return cls(h.value)

    @classmethod
    def from_scipy(cls, matrix, directed=None):
        """A SciPy sparse matrix (any format): row i, column j nonzero = arc i -> j.
        directed=None: undirected if the pattern is symmetric, else directed."""
        try:
            import scipy.sparse as sp
        except ImportError as e:   # pragma: no cover
            raise ImportError("Graph.from_scipy needs scipy") from e
        if not sp.issparse(matrix):
            raise _bad(f"expected a SciPy sparse matrix, not {type(matrix).__name__}")
        if matrix.shape[0] != matrix.shape[1]:
            raise _bad(f"an adjacency matrix is square, not {matrix.shape[0]} x {matrix.shape[1]}")
        coo = matrix.tocoo()
        if directed is None:
            pattern = (coo != 0).astype(np.int8)
            directed = (pattern != pattern.T).nnz != 0
        src, dst = coo.row, coo.col
        if not directed:   # each edge once: the library adds the other direction
            keep = src <= dst
            src, dst = src[keep], dst[keep]
        return cls.from_edges(src, dst, matrix.shape[0], directed=directed)

    @classmethod
    def load(cls, spec, directed=None, threads=0):
        """A file (.mtx, .bbcsr, SNAP edge list; .gz read directly) or a generator
        spec "kron:SCALE[:EDGEFACTOR[:SEED]]". directed=None: the format's default."""
        if not isinstance(spec, (str, bytes)) and not hasattr(spec, "__fspath__"):
            raise _bad(f"spec must be a path or a string such as 'kron:12', not {type(spec).__name__}")
        spec = spec.__fspath__() if hasattr(spec, "__fspath__") else spec
        opts = _padded(_lib.LoadOptions)
        opts.direction = 0 if directed is None else (2 if directed else 1)
        opts.threads = _integer("threads", threads)
        h = ctypes.c_void_p()
        _check(lib.boxbfs_graph_load(spec.encode() if isinstance(spec, str) else spec,
                                     ctypes.byref(opts), ctypes.byref(h)))
        return cls(h.value)

    generate = load   # Graph.generate("kron:12")

    @classmethod
    def kron_on_devices(cls, spec):
        """A Kronecker graph "kron:SCALE[:EDGEFACTOR[:SEED]]" (undirected) that the
        devices of the engine made with it build, each its own rows: until then
        its degrees read 0, and its columns never come to the host (no csr(),
        no validate(): the engine checks its trees)."""
        if not isinstance(spec, str):
            raise _bad(f"spec must be a string such as 'kron:12', not {type(spec).__name__}")
        h = ctypes.c_void_p()
        _check(lib.boxbfs_graph_kron_on_devices(spec.encode(), ctypes.byref(h)))
        return cls(h.value)

    def _handle(self):
        if not self._h:
            raise _bad("the graph is closed")
        return self._h

    def close(self):
        if self._h:
            lib.boxbfs_graph_free(self._h)
            self._h = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:   # interpreter shutdown
            pass

    @property
    def vertices(self):
        return lib.boxbfs_graph_vertices(self._handle())

    n = vertices

    @property
    def input_edges(self):
        return lib.boxbfs_graph_input_edges(self._handle())

    @property
    def arcs(self):
        return lib.boxbfs_graph_arcs(self._handle())

    @property
    def directed(self):
        return bool(lib.boxbfs_graph_is_directed(self._handle()))

    @property
    def name(self):
        return lib.boxbfs_graph_name(self._handle()).decode(errors="replace")

    def csr(self):
        """(offsets, columns): copies of the CSR as int64 arrays (n + 1 and arcs entries)."""
        h = self._handle()
        n, m = self.vertices, self.arcs
        off = np.ctypeslib.as_array(lib.boxbfs_graph_offsets(h), shape=(n + 1,)).copy()
        col = np.ctypeslib.as_array(lib.boxbfs_graph_columns(h), shape=(max(m, 1),))[:m].copy()
        return off, col

    def internal_id(self, external):
        v = ctypes.c_int64()
        _check(lib.boxbfs_graph_internal_id(self._handle(), _integer("external", external),
                                            ctypes.byref(v)))
        return v.value

    def external_id(self, internal):
        v = lib.boxbfs_graph_external_id(self._handle(), _integer("internal", internal))
        if v < 0:
            raise _bad(f"vertex {internal} out of range [0, {self.vertices})")
        return v

    def relabel_by_degree(self, stripes=1):
        """A new Graph numbered by decreasing degree (hubs first; stripes: the device
        count of the searches to come). Its internal ids differ from this graph's:
        map through external_id / internal_id (docs/architecture.md, "Vertex order by degree")."""
        h = ctypes.c_void_p()
        _check(lib.boxbfs_graph_relabel_by_degree(self._handle(), _integer("stripes", stripes),
                                                  ctypes.byref(h)))
        return Graph(h.value)

    def save(self, path):
        """.bbcsr when path ends so, else a SNAP edge list (.gz compressed)."""
        path = str(path)
        f = lib.boxbfs_graph_save if path.endswith(".bbcsr") else lib.boxbfs_graph_save_edgelist
        _check(f(self._handle(), path.encode()))

    def __repr__(self):
        if not self._h:
            return "<boxbfs.Graph closed>"
        return (f"<boxbfs.Graph {self.name}: {self.vertices} vertices, {self.input_edges} input "
                f"edges, {'directed' if self.directed else 'undirected'}>")


class BfsResult:
    """levels (int32, -1 unreached), parents (int64, root its own parent, -1
    unreached) and report (dict: the traffic report of the search)."""

    def __init__(self, root, levels, parents, report):
        self.root, self.levels, self.parents, self.report = root, levels, parents, report

    def __repr__(self):
        return (f"<boxbfs.BfsResult root {self.root}: {self.report['reached']} reached, "
                f"{self.report['levels']} levels, {self.report['total_bytes']} bytes>")


def _report_dict(r, engine):
    nd = lib.boxbfs_engine_device_count(engine)
    lm = lib.boxbfs_engine_link_model(engine).contents

    def matrix(p, shape):
        size = int(np.prod(shape))
        return np.ctypeslib.as_array(p, shape=(size,)).reshape(shape).copy() if size else \
            np.zeros(shape, dtype=np.int64)

    levels = []
    link_levels = matrix(r.level_link_bytes, (r.nlevels, nd, nd)) if r.nlevels else None
    for i in range(r.nlevels):
        lv = r.level_reports[i]
        d = {name: getattr(lv, name) for name, _ in _lib.LevelReport._fields_}
        d["direction"] = lib.boxbfs_search_direction_name(lv.direction).decode()
        d["device_loop"] = bool(lv.device_loop)
        d["links"] = link_levels[i]
        d["devices"] = [{name: getattr(r.level_devices[i * nd + k], name)
                         for name, _ in _lib.LevelDevice._fields_} for k in range(nd)]
        levels.append(d)
    return {
        "root": r.root, "time_s": r.time_s, "levels": r.levels, "reached": r.reached,
        "devices": nd,
        "device_names": [lib.boxbfs_engine_device_name(engine, k).decode() for k in range(nd)],
        "device_parents": [lib.boxbfs_parents_name(lib.boxbfs_engine_parents(engine, k)).decode()
                           for k in range(nd)],
        "wire": lib.boxbfs_wire_name(lib.boxbfs_engine_wire(engine)).decode(),
        "strategy": lib.boxbfs_engine_strategy(engine).decode(),
        "total_bytes": r.total_bytes, "total_messages": r.total_messages,
        "phases": {_PHASES[p]: {"bytes": r.phase_bytes[p], "messages": r.phase_messages[p]}
                   for p in range(_lib.PHASE_COUNT)},
        "link_bytes": matrix(r.link_bytes, (nd, nd)),
        "link_messages": matrix(r.link_messages, (nd, nd)),
        "level_reports": levels,
        "link_model": {"name": lm.name.decode(), "bandwidth_Bps": lm.bandwidth_Bps,
                       "latency_s": lm.latency_s},
        "modeled_exchange_s": r.modeled_exchange_s, "gather_s": r.gather_s,
        "device_span_s": r.device_span_s,
    }


def _graph(graph):
    if not isinstance(graph, Graph):
        raise _bad(f"graph must be a boxbfs.Graph, not {type(graph).__name__}")
    return graph._handle()


def _backend(backend, devices):
    """backend by name; None: cuda when this machine has `devices` GPUs, else cpu."""
    if backend is None:
        backend = "cuda" if lib.boxbfs_backend_device_count(1) >= max(devices, 1) else "cpu"
    return _enum("backend", backend)


def _sources(graph, sources):
    """A non-empty 1-D int64 array of internal ids (the library checks range and repeats)."""
    s = _id_array("sources", sources)
    if s.size == 0:
        raise _bad("sources is empty")
    return s


def bfs(graph, root, devices=1, backend=None, link_model=None, max_depth=None, **options):
    """One BFS from internal id root on `devices` devices.

    backend: "cpu" (devices emulated by host threads, same algorithm and
    byte counts) or "cuda"; None: cuda when this machine has enough GPUs.
    link_model: "nvlink4" (default), "expether-2x10g", "25GB/s,5us", ...
    options (the names of boxbfs bfs --help): contract, visited, wire,
    exchange, expand, direction, parents, search_on (strings); alpha, beta
    (floats).
    Returns a BfsResult."""
    h = _graph(graph)
    root = _integer("root", root)
    devices = _integer("devices", devices)
    opts = _padded(_lib.EngineOptions)
    lib.boxbfs_engine_options_init(ctypes.byref(opts))
    opts.backend = _backend(backend, devices)
    opts.devices = devices
    if link_model is not None:
        if not isinstance(link_model, str):
            raise _bad(f"link_model must be a string, not {type(link_model).__name__}")
        _check(lib.boxbfs_link_model_parse(link_model.encode(), ctypes.byref(opts.link_model)))
    if max_depth is not None:
        opts.max_depth = _integer("max_depth", max_depth)
    for key, value in options.items():
        if key in ("contract", "visited", "wire", "exchange", "expand", "direction", "parents",
                   "search_on"):
            setattr(opts, key, _enum(key, value))
        elif key in ("alpha", "beta"):
            if not isinstance(value, numbers.Real) or isinstance(value, bool):
                raise _bad(f"{key} must be a number")
            setattr(opts, key, float(value))
        else:
            raise _bad(f"unknown option {key!r}")
    n = graph.vertices
    if not 0 <= root < n:   # the library says so too; before allocating the engine
        raise _bad(f"root {root} out of range [0, {n})")
    engine = ctypes.c_void_p()
    _check(lib.boxbfs_engine_create(h, ctypes.byref(opts), ctypes.byref(engine)))
    try:
        parents = np.empty(n, dtype=np.int64)
        levels = np.empty(n, dtype=np.int32)
        rp = ctypes.POINTER(_lib.SearchReport)()
        _check(lib.boxbfs_engine_run(engine, root, _ptr64(parents), _ptr32(levels),
                                     ctypes.byref(rp)))
        report = _report_dict(rp.contents, engine)
    finally:
        lib.boxbfs_engine_free(engine)
    return BfsResult(root, levels, parents, report)


def reference_bfs(graph, root):
    """The library's sequential reference BFS: (levels, parents)."""
    n = graph.vertices
    root = _integer("root", root)
    parents = np.empty(n, dtype=np.int64)
    levels = np.empty(n, dtype=np.int32)
    _check(lib.boxbfs_bfs_reference(graph._handle(), root, _ptr64(parents), _ptr32(levels)))
    return levels, parents


def validate(graph, root, parents, levels=None):
    """Graph500 validation of a tree; returns a dict (reached, input_edges,
    arcs, levels) or raises BoxbfsError (status VALIDATION) naming the broken rule."""
    n = graph.vertices
    p = _id_array("parents", parents)
    if p.size != n:
        raise _bad(f"parents has {p.size} entries, the graph {n} vertices")
    lv = None
    if levels is not None:
        lv = np.asarray(levels)
        if lv.ndim != 1 or lv.size != n or (lv.size and lv.dtype.kind not in "iu"):
            raise _bad(f"levels must be {n} integers")
        lv = np.ascontiguousarray(lv, dtype=np.int32)
    info = _padded(_lib.TreeInfo)
    _check(lib.boxbfs_validate(graph._handle(), _integer("root", root), _ptr64(p),
                               _ptr32(lv) if lv is not None else None, ctypes.byref(info)))
    return {name: getattr(info, name) for name, _ in _lib.TreeInfo._fields_}

def _struct_array(pointer, count, struct_type):
    """A NumPy structured copy of count structs at pointer (offsets from ctypes)."""
    fields = struct_type._fields_
    dtype = np.dtype({"names": [name for name, _ in fields],
                      "formats": [np.dtype(t) for _, t in fields],
                      "offsets": [getattr(struct_type, name).offset for name, _ in fields],
                      "itemsize": ctypes.sizeof(struct_type)})
    raw = ctypes.string_at(pointer, count * ctypes.sizeof(struct_type))
    return np.frombuffer(raw, dtype=dtype, count=count)


class MsbfsResult:
    """One multi-source BFS: per source (arrays in the order of .sources)
    reached, eccentricity, sum_depth, closeness (Wasserman-Faust),
    input_edges, arcs and group; depths (int32, sources x n, -1 unreached)
    when asked for, else None; report (dict: groups, devices, total_s,
    teps, teps_arc, order)."""

    def __init__(self, sources, per_source, depths, report):
        self.sources, self.depths, self.report = sources, depths, report
        for name, values in per_source.items():
            setattr(self, name, values)

    def __repr__(self):
        return (f"<boxbfs.MsbfsResult {self.sources.size} sources in {self.report['ngroups']} "
                f"groups, {self.report['total_s']:.3g} s>")


def msbfs(graph, sources, depths=True, max_depth=None, group_size=128, groupby=True,
          groupby_p=None, groupby_q=None, alpha=None, devices=1, backend=None, validate=False):
    """Concurrent BFS from every source (distinct internal ids) in groups of
    group_size (32, 64, 128) sharing one bitwise status array (iBFS).
    depths=False keeps only the per-source figures (no sources x n array);
    max_depth=K stops at depth K (k-hop counts); groupby, groupby_p/q and
    alpha as boxbfs msbfs --help says. validate=True checks every source's
    depths against the library's reference BFS (needs depths). Returns an
    MsbfsResult."""
    h = _graph(graph)
    src = _sources(graph, sources)
    devices = _integer("devices", devices)
    opts = _padded(_lib.MsbfsOptions)
    lib.boxbfs_msbfs_options_init(ctypes.byref(opts))
    opts.backend = _backend(backend, devices)
    opts.devices = devices
    opts.group_size = _integer("group_size", group_size)
    opts.groupby = 1 if groupby else 0
    if groupby_p is not None:
        opts.groupby_p = _integer("groupby_p", groupby_p)
    if groupby_q is not None:
        opts.groupby_q = _integer("groupby_q", groupby_q)
    if max_depth is not None:
        opts.max_depth = _integer("max_depth", max_depth)
    if alpha is not None:
        if not isinstance(alpha, numbers.Real) or isinstance(alpha, bool):
            raise _bad("alpha must be a number")
        opts.alpha = float(alpha)
    if validate and not depths:
        raise _bad("validate=True checks the depths: it needs depths=True")
    keep = np.full(src.size, 1 if depths else 0, dtype=np.uint8)
    result = ctypes.c_void_p()
    _check(lib.boxbfs_msbfs_run(h, _ptr64(src), src.size, ctypes.byref(opts),
                                keep.ctypes.data_as(ctypes.POINTER(ctypes.c_uint8)),
                                ctypes.byref(result)))
    try:
        n = graph.vertices
        if validate:
            every = np.arange(src.size, dtype=np.int64)
            _check(lib.boxbfs_msbfs_validate(h, result, _ptr64(every), src.size, None))
        rep = lib.boxbfs_msbfs_report(result).contents
        per = _struct_array(rep.sources, src.size, _lib.MsbfsSource)
        per_source = {name: per[name].astype(np.float64 if name == "closeness" else np.int64)
                      for name in ("reached", "eccentricity", "sum_depth", "closeness",
                                   "input_edges", "arcs", "group")}
        dep = None
        if depths:
            dep = np.empty((src.size, n), dtype=np.int32)
            for i in range(src.size):
                dep[i] = np.ctypeslib.as_array(lib.boxbfs_msbfs_depths(result, i), shape=(n,))
        report = {
            "nsources": rep.nsources, "ngroups": rep.ngroups, "total_s": rep.total_s,
            "input_edges": rep.input_edges, "arcs": rep.arcs, "teps": rep.teps,
            "teps_arc": rep.teps_arc,
            "order": np.ctypeslib.as_array(rep.order, shape=(src.size,)).copy(),
            "groups": [{name: getattr(rep.groups[i], name) for name, _ in _lib.MsbfsGroup._fields_}
                       for i in range(rep.ngroups)],
            "devices": [{name: (getattr(rep.devices[i], name).decode() if name == "name" else
                                getattr(rep.devices[i], name))
                         for name, _ in _lib.MsbfsDevice._fields_} for i in range(rep.ndevices)],
        }
    finally:
        lib.boxbfs_msbfs_free(result)
    return MsbfsResult(src, per_source, dep, report)


class SigmaResult:
    """Shortest-path counts from one root: levels (int32, -1 unreached);
    counts (uint64, exact) or, when overflow is True (a count exceeds
    2^64 - 1), float64 counts summed level by level; counts_double (float64,
    always); report (dict: time_s, levels, reached, bytes over the links)."""

    def __init__(self, root, levels, counts, counts_double, overflow, report):
        self.root, self.levels, self.counts = root, levels, counts
        self.counts_double, self.overflow, self.report = counts_double, overflow, report

    def __repr__(self):
        return (f"<boxbfs.SigmaResult root {self.root}: {self.report['reached']} reached"
                f"{', overflow' if self.overflow else ''}>")


def shortest_path_counts(graph, root, devices=1, backend=None, algorithm="frontier",
                         spmv="csc-vector", direction="auto"):
    """The number of shortest paths from internal id root to every vertex
    (boxbfs bfs --sigma): algorithm "frontier" (counts travel with the
    frontier, any number of devices) or "spmv" (TurboBFS, one device, spmv
    "csc-scalar", "csc-vector" or "cooc"); direction "auto", "top-down" or
    "bottom-up". Returns a SigmaResult."""
    h = _graph(graph)
    root = _integer("root", root)
    devices = _integer("devices", devices)
    n = graph.vertices
    if not 0 <= root < n:
        raise _bad(f"root {root} out of range [0, {n})")
    opts = _padded(_lib.SigmaOptions)
    lib.boxbfs_sigma_options_init(ctypes.byref(opts))
    opts.backend = _backend(backend, devices)
    opts.devices = devices
    opts.algorithm = _enum("algorithm", algorithm)
    opts.spmv = _enum("spmv", spmv)
    opts.direction = _enum("direction", direction)
    handle = ctypes.c_void_p()
    _check(lib.boxbfs_sigma_create(h, ctypes.byref(opts), ctypes.byref(handle)))
    try:
        levels = np.empty(n, dtype=np.int32)
        counts = np.empty(n, dtype=np.uint64)
        counts_d = np.empty(n, dtype=np.float64)
        rp = ctypes.POINTER(_lib.SigmaReport)()
        _check(lib.boxbfs_sigma_run(handle, root, _ptr32(levels),
                                    counts.ctypes.data_as(ctypes.POINTER(ctypes.c_uint64)),
                                    counts_d.ctypes.data_as(ctypes.POINTER(ctypes.c_double)),
                                    ctypes.byref(rp)))
        r = rp.contents
        nd = r.devices
        report = {name: getattr(r, name) for name, _ in _lib.SigmaReport._fields_
                  if name not in ("link_bytes", "overflow")}
        report["link_bytes"] = np.ctypeslib.as_array(r.link_bytes, shape=(nd * nd,)).reshape(
            nd, nd).copy()
        overflow = bool(r.overflow)
    finally:
        lib.boxbfs_sigma_free(handle)
    return SigmaResult(root, levels, counts_d if overflow else counts, counts_d, overflow, report)


def bc(graph, sources=None, normalized=False, seed=1, devices=1, backend=None):
    """Betweenness centrality of every vertex (Brandes), as networkx's
    betweenness_centrality: sources None: every vertex (exact); an integer K:
    K distinct vertices drawn with NumPy from seed, the sums scaled by n / K;
    an array: those internal ids (distinct; scaled by n / len when fewer
    than n). normalized divides by (n - 1)(n - 2); else undirected sums are
    halved. Returns a float64 array of n values."""
    h = _graph(graph)
    devices = _integer("devices", devices)
    n = graph.vertices
    if sources is None:
        src = None
    elif isinstance(sources, numbers.Integral) and not isinstance(sources, (bool, np.bool_)):
        k = int(sources)
        if not 1 <= k <= n:
            raise _bad(f"sources={k}: a sample size in [1, {n}]")
        src = np.sort(np.random.default_rng(_integer("seed", seed)).choice(n, size=k,
                                                                            replace=False))
        src = np.ascontiguousarray(src, dtype=np.int64)
    else:
        src = _sources(graph, sources)
    opts = _padded(_lib.BcOptions)
    lib.boxbfs_bc_options_init(ctypes.byref(opts))
    opts.backend = _backend(backend, devices)
    opts.devices = devices
    opts.normalized = 1 if normalized else 0
    result = ctypes.c_void_p()
    _check(lib.boxbfs_bc_run(h, _ptr64(src) if src is not None else None,
                             src.size if src is not None else 0, ctypes.byref(opts),
                             ctypes.byref(result)))
    try:
        values = np.ctypeslib.as_array(lib.boxbfs_bc_values(result), shape=(n,)).copy()
    finally:
        lib.boxbfs_bc_free(result)
    return values
