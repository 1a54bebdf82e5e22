// Chapter 1 exercise: fill in each function (see strides.h for what each returns), then run
//   make exercise N=01
// The check compares your views with the ones attic's Tensor makes.
#include "strides.h"

#include <stdexcept>

namespace exercise {

std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape) {
  // TODO: walk the dims from the last to the first, multiplying the sizes seen so far.
  return std::vector<int64_t>(shape.size(), 1);
}

int64_t offset_of(const View& v, const std::vector<int64_t>& index) {
  // TODO: check the index (length and range), then add index[k] * strides[k] to the offset.
  (void)index;
  return v.offset;
}

View transpose_view(const View& v, int64_t d0, int64_t d1) {
  // TODO: swap the sizes and the strides of d0 and d1; the offset does not change.
  (void)d0;
  (void)d1;
  return v;
}

View slice_view(const View& v, int64_t dim, int64_t start, int64_t end, int64_t step) {
  // TODO: move the offset to index start along dim, scale that dim's stride by step, and
  // give it the number of indices start, start + step, ... below end.
  (void)v;
  (void)dim;
  (void)start;
  (void)end;
  (void)step;
  throw std::logic_error("TODO: slice_view");
}

View select_view(const View& v, int64_t dim, int64_t i) {
  // TODO: move the offset to index i along dim, then erase dim from shape and strides.
  (void)v;
  (void)dim;
  (void)i;
  throw std::logic_error("TODO: select_view");
}

}  // namespace exercise
