// Chapter 1 exercise, solved: views worked out by hand, as attic's Tensor makes them
// (tensor/tensor.cpp and ops/view.cpp).
#include "strides.h"

#include <stdexcept>
#include <utility>

namespace exercise {

// shape [d0, ..., dn-1] -> strides[k] = Π_{j>k} shape[j] (row-major).
std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t step = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    strides[k] = step;
    step *= shape[k];
  }
  return strides;
}

// index [n] -> offset + Σ_k index[k] strides[k].
int64_t offset_of(const View& v, const std::vector<int64_t>& index) {
  if (index.size() != v.shape.size())
    throw std::out_of_range("offset_of: wrong number of indices");
  int64_t at = v.offset;
  for (size_t k = 0; k < index.size(); ++k) {
    if (index[k] < 0 || index[k] >= v.shape[k])
      throw std::out_of_range("offset_of: index out of range");
    at += index[k] * v.strides[k];
  }
  return at;
}

View transpose_view(const View& v, int64_t d0, int64_t d1) {
  View t = v;
  std::swap(t.shape[size_t(d0)], t.shape[size_t(d1)]);
  std::swap(t.strides[size_t(d0)], t.strides[size_t(d1)]);
  return t;
}

// Size along dim: the count of start, start + step, ... below end = ceil((end - start) / step).
View slice_view(const View& v, int64_t dim, int64_t start, int64_t end, int64_t step) {
  View s = v;
  s.offset += start * v.strides[size_t(dim)];
  s.strides[size_t(dim)] *= step;
  s.shape[size_t(dim)] = (end - start + step - 1) / step;
  return s;
}

View select_view(const View& v, int64_t dim, int64_t i) {
  View s = v;
  s.offset += i * v.strides[size_t(dim)];
  s.shape.erase(s.shape.begin() + dim);
  s.strides.erase(s.strides.begin() + dim);
  return s;
}

}  // namespace exercise
