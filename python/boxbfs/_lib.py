"""ctypes declarations of libboxbfs (src/boxbfs.h): the library, its structs
and the prototypes of the functions the bindings call. The structs mirror
the header field by field; tests/test_errors.py checks the options structs
against the values their _options_init functions write."""
import ctypes
import ctypes.util
import os
import subprocess

c_int64_p = ctypes.POINTER(ctypes.c_int64)
c_int32_p = ctypes.POINTER(ctypes.c_int32)

OK = 0
ERR_INVALID_ARG = -1
ERR_IO = -2
ERR_PARSE = -3
ERR_NO_MEMORY = -4
ERR_NO_DEVICE = -5
ERR_DEVICE = -6
ERR_DEVICE_MEMORY = -7
ERR_VALIDATION = -8
ERR_UNSUPPORTED = -9
ERR_INTERNAL = -10

PHASE_COUNT = 9


class LoadOptions(ctypes.Structure):
    _fields_ = [("direction", ctypes.c_int), ("threads", ctypes.c_int),
                ("mpi_slice", ctypes.c_int)]


class LinkModel(ctypes.Structure):
    _fields_ = [("bandwidth_Bps", ctypes.c_double), ("latency_s", ctypes.c_double),
                ("name", ctypes.c_char * 64)]


class EngineOptions(ctypes.Structure):
    _fields_ = [("backend", ctypes.c_int), ("devices", ctypes.c_int),
                ("device_ids", ctypes.POINTER(ctypes.c_int)),
                ("contract", ctypes.c_int), ("visited", ctypes.c_int), ("wire", ctypes.c_int),
                ("exchange", ctypes.c_int), ("expand", ctypes.c_int),
                ("expand_edges_per_thread", ctypes.c_int), ("expand_f0", ctypes.c_int),
                ("link_model", LinkModel), ("device_memory_limit", ctypes.c_size_t),
                ("links", ctypes.c_void_p), ("links_measured", ctypes.c_int),
                ("throttle", ctypes.c_int), ("order", ctypes.c_int), ("direction", ctypes.c_int),
                ("alpha", ctypes.c_double), ("beta", ctypes.c_double),
                ("max_depth", ctypes.c_int), ("device_loop_arcs", ctypes.c_int64),
                ("partition", ctypes.c_int), ("grid_rows", ctypes.c_int),
                ("grid_cols", ctypes.c_int), ("parents", ctypes.c_int),
                ("search_on", ctypes.c_int), ("hub_degree", ctypes.c_int64),
                ("arcs64_from", ctypes.c_int64)]


class LevelReport(ctypes.Structure):
    _fields_ = [("level", ctypes.c_int32), ("direction", ctypes.c_int32),
                ("device_loop", ctypes.c_int32), ("frontier", ctypes.c_int64),
                ("frontier_arcs", ctypes.c_int64), ("unexplored_arcs", ctypes.c_int64),
                ("sent_vertices", ctypes.c_int64), ("undone_vertices", ctypes.c_int64),
                ("bytes", ctypes.c_int64),
                ("messages", ctypes.c_int64), ("bitmap_messages", ctypes.c_int64),
                ("time_s", ctypes.c_double), ("expand_s", ctypes.c_double),
                ("contract_s", ctypes.c_double), ("exchange_s", ctypes.c_double),
                ("update_s", ctypes.c_double), ("modeled_exchange_s", ctypes.c_double),
                ("overhead_s", ctypes.c_double)]


class LevelDevice(ctypes.Structure):
    _fields_ = [("frontier", ctypes.c_int64), ("expand_s", ctypes.c_double),
                ("contract_s", ctypes.c_double), ("exchange_s", ctypes.c_double),
                ("update_s", ctypes.c_double)]


class SearchReport(ctypes.Structure):
    _fields_ = [("root", ctypes.c_int64), ("time_s", ctypes.c_double),
                ("levels", ctypes.c_int32), ("reached", ctypes.c_int64),
                ("total_bytes", ctypes.c_int64), ("total_messages", ctypes.c_int64),
                ("phase_bytes", ctypes.c_int64 * PHASE_COUNT),
                ("phase_messages", ctypes.c_int64 * PHASE_COUNT),
                ("link_bytes", c_int64_p), ("link_messages", c_int64_p),
                ("nlevels", ctypes.c_int), ("level_reports", ctypes.POINTER(LevelReport)),
                ("level_link_bytes", c_int64_p), ("level_devices", ctypes.POINTER(LevelDevice)),
                ("modeled_exchange_s", ctypes.c_double), ("gather_s", ctypes.c_double),
                ("device_span_s", ctypes.c_double)]


class TreeInfo(ctypes.Structure):
    _fields_ = [("reached", ctypes.c_int64), ("input_edges", ctypes.c_int64),
                ("arcs", ctypes.c_int64), ("levels", ctypes.c_int32)]


class MsbfsOptions(ctypes.Structure):
    _fields_ = [("backend", ctypes.c_int), ("devices", ctypes.c_int), ("group_size", ctypes.c_int),
                ("groupby", ctypes.c_int), ("groupby_p", ctypes.c_int64),
                ("groupby_q", ctypes.c_int64), ("max_depth", ctypes.c_int32),
                ("alpha", ctypes.c_double)]


class MsbfsSource(ctypes.Structure):
    _fields_ = [("source", ctypes.c_int64), ("group", ctypes.c_int32),
                ("reached", ctypes.c_int64), ("eccentricity", ctypes.c_int64),
                ("sum_depth", ctypes.c_int64), ("closeness", ctypes.c_double),
                ("input_edges", ctypes.c_int64), ("arcs", ctypes.c_int64)]


class MsbfsGroup(ctypes.Structure):
    _fields_ = [("device", ctypes.c_int32), ("size", ctypes.c_int32), ("levels", ctypes.c_int32),
                ("top_down_levels", ctypes.c_int32), ("bottom_up_levels", ctypes.c_int32),
                ("time_s", ctypes.c_double), ("arcs_touched", ctypes.c_int64),
                ("input_edges", ctypes.c_int64), ("arcs", ctypes.c_int64)]


class MsbfsDevice(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 128), ("groups", ctypes.c_int32),
                ("busy_s", ctypes.c_double), ("arcs_touched", ctypes.c_int64),
                ("input_edges", ctypes.c_int64), ("arcs", ctypes.c_int64)]


class MsbfsReport(ctypes.Structure):
    _fields_ = [("nsources", ctypes.c_int64), ("ngroups", ctypes.c_int32),
                ("ndevices", ctypes.c_int32), ("total_s", ctypes.c_double),
                ("input_edges", ctypes.c_int64), ("arcs", ctypes.c_int64),
                ("teps", ctypes.c_double), ("teps_arc", ctypes.c_double),
                ("sources", ctypes.POINTER(MsbfsSource)), ("groups", ctypes.POINTER(MsbfsGroup)),
                ("devices", ctypes.POINTER(MsbfsDevice)), ("order", c_int64_p)]


class SigmaOptions(ctypes.Structure):
    _fields_ = [("backend", ctypes.c_int), ("devices", ctypes.c_int), ("algorithm", ctypes.c_int),
                ("spmv", ctypes.c_int), ("direction", ctypes.c_int),
                ("switch_density", ctypes.c_double),
                ("device_ids", ctypes.POINTER(ctypes.c_int))]


class SigmaReport(ctypes.Structure):
    _fields_ = [("root", ctypes.c_int64), ("time_s", ctypes.c_double),
                ("levels", ctypes.c_int32), ("bottom_up_levels", ctypes.c_int32),
                ("reached", ctypes.c_int64), ("input_edges", ctypes.c_int64),
                ("overflow", ctypes.c_int), ("devices", ctypes.c_int),
                ("pair_bytes", ctypes.c_int64), ("size_bytes", ctypes.c_int64),
                ("termination_bytes", ctypes.c_int64), ("messages", ctypes.c_int64),
                ("link_bytes", c_int64_p)]


class BcOptions(ctypes.Structure):
    _fields_ = [("backend", ctypes.c_int), ("devices", ctypes.c_int), ("normalized", ctypes.c_int)]


class BcReport(ctypes.Structure):
    _fields_ = [("nsources", ctypes.c_int64), ("devices", ctypes.c_int),
                ("total_s", ctypes.c_double), ("sources", c_int64_p),
                ("source_time_s", ctypes.POINTER(ctypes.c_double)),
                ("source_input_edges", c_int64_p)]


def _candidates():
    """Where libboxbfs may be: $BOXBFS_LIBRARY, pkg-config's libdir, the linker's path."""
    env = os.environ.get("BOXBFS_LIBRARY")
    if env:
        yield env
        return
    try:
        libdir = subprocess.run(["pkg-config", "--variable=libdir", "boxbfs"], capture_output=True,
                                text=True, check=True).stdout.strip()
        if libdir:
            yield os.path.join(libdir, "libboxbfs.so.8")
            yield os.path.join(libdir, "libboxbfs.so")
    except (OSError, subprocess.CalledProcessError):
        pass
    found = ctypes.util.find_library("boxbfs")
    if found:
        yield found
    yield "libboxbfs.so.8"


def _load():
    errors = []
    for path in _candidates():
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            errors.append(f"{path}: {e}")
    raise ImportError("boxbfs: cannot load libboxbfs (install the C library with make install and "
                      "run ldconfig, or set BOXBFS_LIBRARY to the path of libboxbfs.so): "
                      + "; ".join(errors))


lib = _load()

_S = ctypes.c_int   # boxbfs_status_t
_P = ctypes.c_void_p
_PROTOTYPES = {
    "boxbfs_status_string": (ctypes.c_char_p, [ctypes.c_int]),
    "boxbfs_last_error": (ctypes.c_char_p, []),
    "boxbfs_version": (ctypes.c_char_p, []),
    "boxbfs_graph_load": (_S, [ctypes.c_char_p, ctypes.POINTER(LoadOptions), ctypes.POINTER(_P)]),
    "boxbfs_graph_kron_on_devices": (_S, [ctypes.c_char_p, ctypes.POINTER(_P)]),
    "boxbfs_graph_from_edges": (_S, [ctypes.c_int64, ctypes.c_int64, c_int64_p, c_int64_p,
                                     ctypes.c_int, ctypes.POINTER(_P)]),
    "boxbfs_graph_save": (_S, [_P, ctypes.c_char_p]),
    "boxbfs_graph_save_edgelist": (_S, [_P, ctypes.c_char_p]),
    "boxbfs_graph_free": (None, [_P]),
    "boxbfs_graph_vertices": (ctypes.c_int64, [_P]),
    "boxbfs_graph_input_edges": (ctypes.c_int64, [_P]),
    "boxbfs_graph_arcs": (ctypes.c_int64, [_P]),
    "boxbfs_graph_is_directed": (ctypes.c_int, [_P]),
    "boxbfs_graph_name": (ctypes.c_char_p, [_P]),
    "boxbfs_graph_offsets": (c_int64_p, [_P]),
    "boxbfs_graph_columns": (c_int64_p, [_P]),
    "boxbfs_graph_external_id": (ctypes.c_int64, [_P, ctypes.c_int64]),
    "boxbfs_graph_internal_id": (_S, [_P, ctypes.c_int64, c_int64_p]),
    "boxbfs_graph_relabel_by_degree": (_S, [_P, ctypes.c_int, ctypes.POINTER(_P)]),
    "boxbfs_bfs_reference": (_S, [_P, ctypes.c_int64, c_int64_p, c_int32_p]),
    "boxbfs_validate": (_S, [_P, ctypes.c_int64, c_int64_p, c_int32_p, ctypes.POINTER(TreeInfo)]),
    "boxbfs_engine_options_init": (None, [ctypes.POINTER(EngineOptions)]),
    "boxbfs_link_model_parse": (_S, [ctypes.c_char_p, ctypes.POINTER(LinkModel)]),
    "boxbfs_engine_create": (_S, [_P, ctypes.POINTER(EngineOptions), ctypes.POINTER(_P)]),
    "boxbfs_engine_free": (None, [_P]),
    "boxbfs_engine_device_count": (ctypes.c_int, [_P]),
    "boxbfs_engine_device_name": (ctypes.c_char_p, [_P, ctypes.c_int]),
    "boxbfs_engine_parents": (ctypes.c_int, [_P, ctypes.c_int]),
    "boxbfs_engine_wire": (ctypes.c_int, [_P]),
    "boxbfs_engine_strategy": (ctypes.c_char_p, [_P]),
    "boxbfs_engine_link_model": (ctypes.POINTER(LinkModel), [_P]),
    "boxbfs_engine_run": (_S, [_P, ctypes.c_int64, c_int64_p, c_int32_p,
                               ctypes.POINTER(ctypes.POINTER(SearchReport))]),
    "boxbfs_backend_device_count": (ctypes.c_int, [ctypes.c_int]),
    "boxbfs_backend_name": (ctypes.c_char_p, [ctypes.c_int]),
    "boxbfs_contract_name": (ctypes.c_char_p, [ctypes.c_int]),
    "boxbfs_visited_name": (ctypes.c_char_p, [ctypes.c_int]),
    "boxbfs_parents_name": (ctypes.c_char_p, [ctypes.c_int]),
    "boxbfs_search_on_name": (ctypes.c_char_p, [ctypes.c_int]),
    "boxbfs_wire_name": (ctypes.c_char_p, [ctypes.c_int]),
    "boxbfs_exchange_name": (ctypes.c_char_p, [ctypes.c_int]),
    "boxbfs_expand_name": (ctypes.c_char_p, [ctypes.c_int]),
    "boxbfs_phase_name": (ctypes.c_char_p, [ctypes.c_int]),
    "boxbfs_search_direction_name": (ctypes.c_char_p, [ctypes.c_int]),
    "boxbfs_msbfs_options_init": (None, [ctypes.POINTER(MsbfsOptions)]),
    "boxbfs_msbfs_run": (_S, [_P, c_int64_p, ctypes.c_int64, ctypes.POINTER(MsbfsOptions),
                              ctypes.POINTER(ctypes.c_uint8), ctypes.POINTER(_P)]),
    "boxbfs_msbfs_free": (None, [_P]),
    "boxbfs_msbfs_report": (ctypes.POINTER(MsbfsReport), [_P]),
    "boxbfs_msbfs_depths": (c_int32_p, [_P, ctypes.c_int64]),
    "boxbfs_msbfs_validate": (_S, [_P, _P, c_int64_p, ctypes.c_int64,
                                   ctypes.POINTER(ctypes.c_int)]),
    "boxbfs_sigma_options_init": (None, [ctypes.POINTER(SigmaOptions)]),
    "boxbfs_sigma_create": (_S, [_P, ctypes.POINTER(SigmaOptions), ctypes.POINTER(_P)]),
    "boxbfs_sigma_free": (None, [_P]),
    "boxbfs_sigma_run": (_S, [_P, ctypes.c_int64, c_int32_p, ctypes.POINTER(ctypes.c_uint64),
                              ctypes.POINTER(ctypes.c_double),
                              ctypes.POINTER(ctypes.POINTER(SigmaReport))]),
    "boxbfs_sigma_algorithm_name": (ctypes.c_char_p, [ctypes.c_int]),
    "boxbfs_spmv_name": (ctypes.c_char_p, [ctypes.c_int]),
    "boxbfs_bc_options_init": (None, [ctypes.POINTER(BcOptions)]),
    "boxbfs_bc_run": (_S, [_P, c_int64_p, ctypes.c_int64, ctypes.POINTER(BcOptions),
                           ctypes.POINTER(_P)]),
    "boxbfs_bc_free": (None, [_P]),
    "boxbfs_bc_values": (ctypes.POINTER(ctypes.c_double), [_P]),
    "boxbfs_bc_report": (ctypes.POINTER(BcReport), [_P]),
}
for _name, (_res, _args) in _PROTOTYPES.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args
