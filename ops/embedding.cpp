// embedding: a lookup table. Row v of weight is the vector of token v.
#include "ops/helpers.h"

namespace attic {

// weight [V, C], indices int64 of any shape S -> y [S..., C];  y[s] = weight[indices[s]].
// It is index_select on the flattened ids, so the backward (index_add) and the summing of
// gradients for repeated tokens come from there.
Tensor embedding(const Tensor& weight, const Tensor& indices) {
  detail::check_defined("embedding", weight);
  detail::check_index_dtype("embedding", indices);
  ATTIC_CHECK(weight.dim() == 2, "embedding: weight must be 2-D [V, C], got shape ",
              str(weight.shape()));
  const int64_t V = weight.size(0);
  if (const auto id = detail::first_out_of_range(indices, V))
    fail("embedding: token id ", *id, " is out of range for a vocabulary of V = ", V,
         " (weight ", str(weight.shape()), ")");
  Shape shape = indices.shape();
  shape.push_back(weight.size(1));
  return detail::index_select_prechecked(weight, 0, indices.flatten()).view(shape);
}

}  // namespace attic
