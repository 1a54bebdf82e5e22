// attic::debug::repr, and the section that makes gdb load attic's pretty-printers.
#include "tensor/debug.h"

#include <sstream>


// .debug_gdb_scripts: gdb reads this section of every file it opens and runs the scripts
// listed in it. Entry type 4 is an inline Python script: the byte 4, the script's name and a
// newline, the script, a NUL. The script is debug/gdb/attic_printers.py itself, pulled in
// by .incbin at compile time (ATTIC_GDB_PRINTERS is its path): one source of truth. "MS"
// and entry size 1 make the linker merge identical entries. gdb runs it only when the
// binary lies in its auto-load safe-path (debug/gdb/attic-gdb adds the build folder).
#if defined(__ELF__) && defined(ATTIC_GDB_PRINTERS)
asm(".pushsection \".debug_gdb_scripts\", \"MS\",%progbits,1\n"
    ".byte 4\n"
    ".ascii \"gdb.inlined-script.attic-printers\\n\"\n"
    ".incbin \"" ATTIC_GDB_PRINTERS "\"\n"
    ".byte 0\n"
    ".popsection\n");
#endif

// The library is a static archive: the linker takes this object into a program only if the
// program needs a symbol of it. attic's CMakeLists asks for this one (-u) in every program
// that links attic, so that each has the printers and a repr that gdb can call.
extern "C" void attic_debug_link_anchor() {}

namespace attic::debug {

std::string repr(const Tensor& t) {
  if (!t.defined()) return "Tensor (undefined)\n";
  std::ostringstream os;
  TensorImpl& impl = *t.impl();
  os << "Tensor " << str(t.shape()) << " " << dtype_name(t.dtype()) << " "
     << device_name(t.device()) << " strides=" << str(t.strides()) << " offset="
     << impl.offset << " requires_grad=" << (t.requires_grad() ? "true" : "false")
     << " grad_fn=" << (impl.grad_fn ? autograd::node_name(*impl.grad_fn) : "none")
     << " grad=" << (impl.grad ? str(impl.grad->shape) : std::string("none")) << "\n"
     << t << "\n";
  return os.str();
}

}  // namespace attic::debug
