// Chapter 2: broadcasting is stride 0. For out = a [3, 1] + b [1, 4], each operand is read as
// [3, 4] through expand, which gives the dims it repeats stride 0: stepping along them reads
// the same float again. The kernel walks the index (i, j) like an odometer, the last digit
// turning fastest, and finds each operand at offset i·stride0 + j·stride1. Draws
// 02_stride_zero.svg: the three grids with their storage, and the odometer's walk.
#include <iostream>

#include "ops/ops.h"
#include "viz/diagram.h"
#include "viz/svg.h"

using namespace attic;

// Moves idx to the next index of shape, the last digit fastest: a digit that reaches its
// dim's size goes back to 0 and carries one into the digit before it. False after the last.
bool next(std::vector<int64_t>& idx, const Shape& shape) {
  for (size_t d = shape.size(); d-- > 0;) {
    if (++idx[d] < shape[d]) return true;
    idx[d] = 0;
  }
  return false;
}

// The storage offset of idx in a tensor with these strides: the sum of idx[d]·strides[d].
int64_t offset(const std::vector<int64_t>& idx, const std::vector<int64_t>& strides) {
  int64_t k = 0;
  for (size_t d = 0; d < idx.size(); ++d) k += idx[d] * strides[d];
  return k;
}

// Draws t [R, C] at (x, y), each cell with its value and storage offset. With n > 0 the cells
// are colored by their offset, and the n storage cells t reads are drawn under the grid in
// the same colors.
void grid(viz::Diagram& d, int x, int y, const std::string& name, const Tensor& t, int64_t n) {
  const float* storage = t.data_ptr<float>() - t.storage_offset();
  d.text(x, y - 12, name + ": strides " + str(t.strides()), 13, "", "start");
  for (int64_t i = 0; i < t.size(0); ++i)
    for (int64_t j = 0; j < t.size(1); ++j) {
      const int64_t k = offset({i, j}, t.strides());
      const int cx = x + int(j) * 44, cy = y + int(i) * 40;
      d.cell(cx, cy, 44, 40, n > 0 ? viz::series_color(size_t(k)) : "#bbbbbb",
             std::to_string(int(storage[k])), 14);
      d.text(cx + 22, cy + 35, std::string(1, '[').append(std::to_string(k)).append("]"), 10, "#555");
    }
  const int below = y + int(t.size(0)) * 40;
  if (n > 0) d.text(x, below + 22, "storage: " + std::to_string(n) + " floats", 11, "", "start");
  for (int64_t k = 0; k < n; ++k)
    d.cell(x + int(k) * 44, below + 30, 44, 26, viz::series_color(size_t(k)),
           std::to_string(int(storage[k])));
}

int main() {
  std::cout << std::boolalpha;
  Tensor a = tensor({{10}, {20}, {30}});  // [3, 1]
  Tensor b = tensor({{1, 2, 3, 4}});      // [1, 4]
  Tensor out = a + b;                     // [3, 4]
  const Shape shape = out.shape();
  const Tensor ae = a.expand(shape), be = b.expand(shape);  // views: nothing is copied
  std::cout << "a " << str(a.shape()) << " strides " << str(a.strides()) << "; expanded to "
            << str(shape) << ": strides " << str(ae.strides()) << ", shares a's storage "
            << ae.shares_storage(a) << "\n";
  std::cout << "b " << str(b.shape()) << " strides " << str(b.strides()) << "; expanded to "
            << str(shape) << ": strides " << str(be.strides()) << ", shares b's storage "
            << be.shares_storage(b) << "\n";
  std::cout << "out " << str(shape) << " strides " << str(out.strides()) << "\n";

  viz::Diagram d(780, 456);
  d.text(390, 24, "out = a + b: a [3, 1] and b [1, 4] read as [3, 4], stride 0 where they repeat",
         14);
  grid(d, 30, 70, "a.expand({3, 4})", ae, 3);
  grid(d, 290, 70, "b.expand({3, 4})", be, 4);
  grid(d, 550, 70, "out", out, 0);
  d.text(550, 212, "contiguous: the offsets count", 11, "", "start");
  d.text(550, 226, "0 to 11 in the odometer's order", 11, "", "start");

  // The odometer: (i, j) in the kernel's order, with each operand's offset from its strides.
  std::cout << "the odometer, (i, j): offsets in a, b, out\n";
  d.text(30, 286, "the odometer: (i, j) in the order the kernel walks it, j fastest; "
                  "offset = i·stride0 + j·stride1", 13, "", "start");
  auto rule = [](const std::string& name, const Tensor& t) {
    return name + ": i·" + std::to_string(t.stride(0)) + " + j·" + std::to_string(t.stride(1));
  };
  const std::string rows[] = {"(i, j)", rule("a", ae), rule("b", be), rule("out", out)};
  for (int r = 0; r < 4; ++r) d.text(134, 319 + r * 30, rows[r], 12, "", "end");
  const float* pa = a.data_ptr<float>();
  const float* pb = b.data_ptr<float>();
  const float* po = out.data_ptr<float>();
  bool sums = true;
  std::vector<int64_t> idx(shape.size(), 0);
  int step = 0;
  do {
    const int64_t ka = offset(idx, ae.strides()), kb = offset(idx, be.strides()),
                  ko = offset(idx, out.strides());
    sums = sums && po[ko] == pa[ka] + pb[kb];
    std::cout << (idx[1] == 0 ? "  " : "   ") << "(" << idx[0] << ", " << idx[1] << "): " << ka
              << " " << kb << " " << ko << (idx[1] == shape[1] - 1 ? "\n" : "");
    const int x = 140 + step * 52;
    d.cell(x, 300, 52, 30, "#bbbbbb",
           std::string(1, '(').append(std::to_string(idx[0])).append(", ")
               .append(std::to_string(idx[1])).append(")"));
    d.cell(x, 330, 52, 30, viz::series_color(size_t(ka)), std::to_string(ka));
    d.cell(x, 360, 52, 30, viz::series_color(size_t(kb)), std::to_string(kb));
    d.cell(x, 390, 52, 30, "#bbbbbb", std::to_string(ko));
    if (idx[1] == 0 && step > 0) d.line(x, 294, x, 426, "#d62728", 2, false);  // a carry
    ++step;
  } while (next(idx, shape));
  d.text(140, 442, "red: j rolls back to 0 and carries one into i", 11, "#d62728", "start");
  std::cout << "out[ko] = a[ka] + b[kb] at every step: " << sums << "\n";
  d.write("02_stride_zero.svg");
  std::cout << "wrote 02_stride_zero.svg\n";
  return 0;
}
