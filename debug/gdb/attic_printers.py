# gdb pretty-printers for attic: Tensor, TensorImpl, Storage and autograd nodes.
#
#   (gdb) print g
#   $1 = attic::Tensor [2, 2] float32 cpu [1, 1, 1, 1] requires_grad=false grad_fn=none
#
# They are passive: they read fields and memory and call no function of the program, so
# they also work on a core dump. A node's name is its class name, not name(), which would
# be a call: it is read from the symbol of the node's vtable.
#
# The library embeds this file in every attic binary (a .debug_gdb_scripts section, see
# tensor/debug.cpp), so gdb loads it when it opens one, once the binary's folder is in gdb's
# auto-load safe-path:  gdb -iex "add-auto-load-safe-path /path/to/attic" ./build/attic
# (debug/gdb/attic-gdb does exactly that). Or load it by hand:  source debug/gdb/attic_printers.py
#
# It reads libstdc++'s layout of std::shared_ptr (_M_ptr) and std::vector (_M_impl).
import struct

import gdb

MAX_VALUES = 8

# attic::DType and attic::Device (tensor/dtype.h), by their underlying value.
DTYPES = {0: ("float32", "float"), 1: ("float64", "double"), 2: ("int64", "long"),
          3: ("bool", "unsigned char"), 4: ("bfloat16", "unsigned short"),
          5: ("float16", "unsigned short")}
DEVICES = {0: "cpu", 1: "cuda"}


def _get(sp):
    """The raw pointer inside a std::shared_ptr (0 when empty)."""
    return sp["_M_ptr"]


def _vector(v):
    """The elements of a std::vector<int64_t> as Python ints."""
    start, finish = v["_M_impl"]["_M_start"], v["_M_impl"]["_M_finish"]
    return [int((start + i).dereference()) for i in range(int(finish - start))]


def _shape(dims):
    return "[" + ", ".join(str(d) for d in dims) + "]"


def _half_to_float(bits, dtype):
    """A bfloat16 or float16's bits (an int) as a Python float, as tensor/half.h widens them."""
    if dtype == "bfloat16":
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    return struct.unpack("<e", struct.pack("<H", bits))[0]


def _number(x, dtype):
    if dtype in ("bfloat16", "float16"):
        x = _half_to_float(int(x), dtype)
    if dtype == "int64":
        return str(int(x))
    if dtype == "bool":  # one byte, 0 or 1; printed as attic prints it (tensor/print.cpp)
        return "true" if int(x) else "false"
    f = float(x)
    if f != f:
        return "nan"
    if f in (float("inf"), float("-inf")):
        return "inf" if f > 0 else "-inf"
    return "%.6g" % f


def _node_name(node_ptr):
    """The class name of the node behind a Node*, without namespaces, read from the symbol
    of its vtable ("vtable for attic::(anonymous namespace)::MatmulBackward + 16"): the
    first word of a polymorphic object points into its class's vtable. This needs no debug
    info for the class, only the symbol table."""
    if int(node_ptr) == 0:
        return "none"
    try:
        word = gdb.lookup_type("unsigned long").pointer()
        vptr = int(node_ptr.cast(word).dereference())
        sym = gdb.execute("info symbol %d" % vptr, to_string=True)
    except gdb.error:
        return "?"
    if not sym.startswith("vtable for "):
        return "?"
    name = sym[len("vtable for "):].split(" + ")[0].split(" in section")[0].strip()
    return name.split("::")[-1]


def _first_values(impl, shape, dtype_name, ctype):
    """Up to MAX_VALUES elements in row-major order, reading strides and offset."""
    storage = _get(impl["storage"])
    if int(storage) == 0:
        return "(no storage)"
    data = storage.dereference()["data"]
    if int(data) == 0:
        return "(no data)"
    strides = _vector(impl["strides"])
    offset = int(impl["offset"])
    numel = 1
    for d in shape:
        numel *= d
    ptr = data.cast(gdb.lookup_type(ctype).pointer())
    out = []
    index = [0] * len(shape)
    for _ in range(min(numel, MAX_VALUES)):
        flat = offset + sum(i * s for i, s in zip(index, strides))
        out.append(_number((ptr + flat).dereference(), dtype_name))
        for d in reversed(range(len(shape))):  # odometer step through the dims
            index[d] += 1
            if index[d] < shape[d]:
                break
            index[d] = 0
    more = ", ..." if numel > MAX_VALUES else ""
    return "[" + ", ".join(out) + more + "]"


def describe_impl(impl):
    """One line for a TensorImpl (a gdb.Value of the struct, not a pointer)."""
    shape = _vector(impl["shape"])
    dtype_name, ctype = DTYPES.get(int(impl["dtype"]), ("?", None))
    device = DEVICES.get(int(impl["device"]), "?")
    if device != "cpu" or ctype is None:
        values = "(values on %s not read)" % device
    else:
        try:
            values = _first_values(impl, shape, dtype_name, ctype)
        except gdb.MemoryError:
            values = "(memory not readable)"
    requires_grad = "true" if bool(impl["requires_grad"]) else "false"
    grad_fn = _node_name(_get(impl["grad_fn"]))
    grad = " grad=" + _shape(_vector(_get(impl["grad"]).dereference()["shape"])) \
        if int(_get(impl["grad"])) else ""
    return "%s %s %s %s requires_grad=%s grad_fn=%s%s" % (
        _shape(shape), dtype_name, device, values, requires_grad, grad_fn, grad)


class TensorPrinter:
    def __init__(self, val):
        self.val = val

    def to_string(self):
        impl = _get(self.val["impl_"])
        if int(impl) == 0:
            return "attic::Tensor (undefined)"
        return "attic::Tensor " + describe_impl(impl.dereference())


class TensorImplPrinter:
    def __init__(self, val):
        self.val = val

    def to_string(self):
        return "attic::TensorImpl " + describe_impl(self.val)


class StoragePrinter:
    def __init__(self, val):
        self.val = val

    def to_string(self):
        return "attic::Storage %d bytes on %s at %s" % (
            int(self.val["nbytes"]), DEVICES.get(int(self.val["device"]), "?"),
            hex(int(self.val["data"])))


class NodePrinter:
    """Any subclass of attic::autograd::Node: its name, output shape and inputs."""

    def __init__(self, val):
        self.val = val

    def to_string(self):
        name = _node_name(self.val.address)
        try:
            return self._describe(name, _as_node(self.val))
        except gdb.error:
            # GCC describes a class with virtual functions only in the object file that
            # holds its vtable (node.cpp for Node): without -g there, its fields are unknown.
            return name + " (Node's fields are not in the debug info: use make debug)"

    def _describe(self, name, node):
        inputs = node["inputs"]
        start, finish = inputs["_M_impl"]["_M_start"], inputs["_M_impl"]["_M_finish"]
        parts = []
        for i in range(int(finish - start)):
            edge = (start + i).dereference()
            fn = _get(edge["fn"])
            leaf = _get(edge["leaf"])  # weak_ptr: same _M_ptr field
            shape = _shape(_vector(edge["shape"]))
            if int(fn):
                parts.append(_node_name(fn) + " " + shape)
            elif int(leaf):
                parts.append("leaf " + shape)
            else:
                parts.append("none " + shape)
        released = " released" if bool(node["released"]) else ""
        return "%s out_shape=%s inputs=[%s] sequence_nr=%d%s" % (
            name, _shape(_vector(node["out_shape"])), ", ".join(parts),
            int(node["sequence_nr"]), released)


def _as_node(val):
    """The attic::autograd::Node part of a value of a class derived from it (read through
    the base-class fields, so gdb needs no lookup of Node's type by name)."""
    t = val.type.strip_typedefs()
    if t.name == "attic::autograd::Node":
        return val
    for f in t.fields():
        if f.is_base_class and _is_node(f.type.strip_typedefs()):
            return _as_node(val[f])
    return val


def _is_node(t):
    if t.name == "attic::autograd::Node":
        return True
    try:
        fields = t.fields()
    except TypeError:
        return False
    return any(f.is_base_class and _is_node(f.type.strip_typedefs()) for f in fields)


def lookup(val):
    t = val.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_REF or t.code == gdb.TYPE_CODE_RVALUE_REF:
        t = t.target().strip_typedefs()
    if t.code != gdb.TYPE_CODE_STRUCT:
        return None
    if t.name == "attic::Tensor":
        return TensorPrinter(val)
    if t.name == "attic::TensorImpl":
        return TensorImplPrinter(val)
    if t.name == "attic::Storage":
        return StoragePrinter(val)
    if _is_node(t):
        return NodePrinter(val)
    return None


def register(objfile=None):
    """Adds lookup to objfile's printers (to gdb's global list when sourced by hand)."""
    target = objfile if objfile is not None else gdb
    if lookup not in target.pretty_printers:
        target.pretty_printers.append(lookup)


register(gdb.current_objfile())
