"""Bad input from Python: wrong dtypes, lengths, ids, options; library
errors as exceptions carrying boxbfs_last_error()."""
import ctypes

import numpy as np
import pytest

import boxbfs
from boxbfs import _lib


def test_abi_options_layout():
    # boxbfs_engine_options_init's defaults read back through the ctypes struct:
    # a field out of place reads garbage here
    o = _lib.EngineOptions()
    _lib.lib.boxbfs_engine_options_init(ctypes.byref(o))
    assert (o.backend, o.devices, o.expand_edges_per_thread, o.expand_f0) == (0, 1, 0, 10)   # K auto
    assert o.link_model.name == b"nvlink4" and o.link_model.bandwidth_Bps > 0
    assert (o.alpha, o.beta, o.max_depth, o.device_loop_arcs) == (0.0, 18.0, -1, 16384)   # alpha auto
    assert (o.partition, o.parents) == (0, 0)   # 1d, parents auto


def test_version():
    assert boxbfs.version().count(".") == 2


@pytest.mark.parametrize("src,dst", [
    (np.array([0.0, 1.0]), np.array([1, 2])),            # floats
    (np.array([0, 1]), np.array([True, False])),           # bools
    (np.array(["0", "1"]), np.array([1, 2])),              # strings
    (np.array([[0, 1]]), np.array([[1, 2]])),              # 2-D
    (np.array([0, 1, 2]), np.array([1, 2])),               # lengths differ
    ([0, 1], [1, 7]),                                      # id out of range
    ([0, -1], [1, 2]),                                     # negative id
])
def test_from_edges_bad(src, dst):
    with pytest.raises(ValueError):
        boxbfs.Graph.from_edges(src, dst, 3)


@pytest.mark.parametrize("n", [0, -4, 2.5, "3", None, True])
def test_from_edges_bad_n(n):
    with pytest.raises(ValueError):
        boxbfs.Graph.from_edges([0], [1], n)


def test_library_message_in_exception():
    with pytest.raises(boxbfs.InvalidArgument) as e:
        boxbfs.Graph.from_edges([0, 1], [1, 9], 3)
    assert e.value.status == _lib.ERR_INVALID_ARG
    assert "9" in e.value.message and e.value.message in str(e.value)


def test_load_errors(tmp_path):
    with pytest.raises(boxbfs.BoxbfsError) as e:
        boxbfs.Graph.load(tmp_path / "missing.mtx")
    assert e.value.status == _lib.ERR_IO and "missing.mtx" in e.value.message
    bad = tmp_path / "bad.mtx"
    bad.write_text("%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 7\n")
    with pytest.raises(boxbfs.BoxbfsError) as e:
        boxbfs.Graph.load(bad)
    assert e.value.status == _lib.ERR_PARSE and "bad.mtx" in e.value.message
    with pytest.raises(ValueError):
        boxbfs.Graph.load("kron:-1")
    with pytest.raises(ValueError):
        boxbfs.Graph.load(12)


def test_bfs_bad_arguments():
    g = boxbfs.Graph.from_edges([0, 1], [1, 2], 3)
    for root in (3, -1, 1.0, "0", None, True):
        with pytest.raises(ValueError):
            boxbfs.bfs(g, root, backend="cpu")
    for devices in (0, -2, 1.5, "2"):
        with pytest.raises(ValueError):
            boxbfs.bfs(g, 0, devices=devices, backend="cpu")
    with pytest.raises(ValueError):
        boxbfs.bfs(g, 0, backend="quantum")
    with pytest.raises(ValueError):
        boxbfs.bfs(g, 0, backend="cpu", contract="bogus")
    with pytest.raises(ValueError):
        boxbfs.bfs(g, 0, backend="cpu", parents="sometimes")
    with pytest.raises(ValueError):
        boxbfs.bfs(g, 0, backend="cpu", colour="red")
    with pytest.raises(ValueError):
        boxbfs.bfs(g, 0, backend="cpu", link_model="warp-drive")
    with pytest.raises(ValueError):
        boxbfs.bfs(g, 0, backend="cpu", alpha=float("nan"))
    with pytest.raises(ValueError):
        boxbfs.bfs("not a graph", 0)
    g.close()
    with pytest.raises(ValueError):
        boxbfs.bfs(g, 0, backend="cpu")


def test_validate_rejects_bad_trees():
    g = boxbfs.Graph.from_edges([0, 1], [1, 2], 3)
    with pytest.raises(ValueError):
        boxbfs.validate(g, 0, np.array([0, 0]))                 # length
    with pytest.raises(ValueError):
        boxbfs.validate(g, 0, np.array([0.0, 0.0, 1.0]))        # dtype
    with pytest.raises(boxbfs.BoxbfsError) as e:
        boxbfs.validate(g, 0, np.array([0, 0, 0]))              # 0 - 2 is no edge
    assert e.value.status == _lib.ERR_VALIDATION and e.value.message


def test_cuda_without_gpu():
    if boxbfs.device_count("cuda") > 0:
        pytest.skip("this machine has a GPU")
    g = boxbfs.Graph.from_edges([0], [1], 2)
    with pytest.raises(boxbfs.BoxbfsError) as e:
        boxbfs.bfs(g, 0, backend="cuda")
    assert e.value.status in (_lib.ERR_NO_DEVICE, _lib.ERR_UNSUPPORTED, _lib.ERR_DEVICE)
    assert e.value.message
