// Chapter 1: one storage, two views. Draws 01_strides.svg: a [2, 3] tensor, its transpose,
// and the row of memory both read, each cell at offset + row * stride0 + col * stride1.
#include <fstream>
#include <iostream>
#include <sstream>

#include "ops/ops.h"
#include "viz/svg.h"

using namespace attic;

std::ostringstream svg;

// One cell: a box filled with the color of the storage index it holds, and up to two lines.
void cell(int x, int y, int w, int h, int64_t k, const std::string& big, const std::string& small) {
  svg << "<rect x='" << x << "' y='" << y << "' width='" << w << "' height='" << h << "' fill='"
      << viz::series_color(size_t(k)) << "' fill-opacity='0.3' stroke='#333'/>\n"
      << "<text x='" << x + w / 2 << "' y='" << y + 20 << "' font-size='16'>" << big << "</text>\n"
      << "<text x='" << x + w / 2 << "' y='" << y + 37 << "' font-size='11'>"
      << viz::svg_escape(small) << "</text>\n";
}

// A 2-D view t of the storage, drawn at (x, y) as a grid under a caption. Each cell shows
// its value and the sum that finds it; the offsets and values, in row-major order, print.
void grid(const char* name, const Tensor& t, int x, int y) {
  const float* storage = t.data_ptr<float>() - t.storage_offset();  // storage index 0
  std::ostringstream offsets, values;
  svg << "<text x='" << x << "' y='" << y - 10 << "' font-size='13' text-anchor='start'>" << name
      << ": shape " << str(t.shape()) << ", strides " << str(t.strides()) << "</text>\n";
  for (int64_t r = 0; r < t.size(0); ++r)
    for (int64_t c = 0; c < t.size(1); ++c) {
      const int64_t k = t.storage_offset() + r * t.stride(0) + c * t.stride(1);
      std::ostringstream sum;
      sum << r << "·" << t.stride(0) << " + " << c << "·" << t.stride(1) << " = " << k;
      cell(x + int(c) * 96, y + int(r) * 48, 96, 48, k, std::to_string(int(storage[k])), sum.str());
      offsets << " " << k;
      values << " " << storage[k];
    }
  std::cout << name << ": offsets" << offsets.str() << ", values" << values.str() << "\n";
}

int main() {
  std::cout << std::boolalpha;
  Tensor a = arange(10, 16).view({2, 3});  // storage index k holds 10 + k
  Tensor at = a.t();
  svg << "<svg xmlns='http://www.w3.org/2000/svg' width='640' height='370' "
         "font-family='sans-serif' text-anchor='middle'>\n"
      << "<defs><marker id='arrow' viewBox='0 0 10 10' refX='10' refY='5' markerWidth='7' "
         "markerHeight='7' orient='auto'><path d='M0,0 L10,5 L0,10 z' fill='#333'/>"
         "</marker></defs>\n"
      << "<rect width='640' height='370' fill='white'/>\n"
      << "<text x='320' y='24' font-size='15'>one storage, two views: "
         "offset = row·stride0 + col·stride1</text>\n"
      << "<text x='60' y='77' font-size='13'>storage</text>\n";
  for (int64_t k = 0; k < 6; ++k) {
    std::ostringstream index;
    index << "[" << k << "]";
    const int value = int(a.data_ptr<float>()[k]);
    cell(110 + int(k) * 72, 50, 72, 48, k, std::to_string(value), index.str());
  }
  grid("a", a, 20, 170);
  grid("a.t()", at, 370, 170);
  // a[0, 2] and a.t()[2, 0] are one number: arrows from both to storage index 2.
  svg << "<line x1='260' y1='170' x2='288' y2='100' stroke='#333' stroke-width='2' "
         "marker-end='url(#arrow)'/>\n"
      << "<line x1='370' y1='290' x2='292' y2='100' stroke='#333' stroke-width='2' "
         "marker-end='url(#arrow)'/>\n"
      << "<text x='320' y='350' font-size='12'>a[0, 2] and a.t()[2, 0] both read storage[2]: "
         "the transpose moved no number</text>\n</svg>\n";
  std::ofstream("01_strides.svg") << svg.str();
  std::cout << "shares storage: " << at.shares_storage(a) << "\nwrote 01_strides.svg\n";
  return 0;
}
