// The learned routers of a route-attention GPT as heat maps: for every block that uses them
// (i >= 2), K_router and V_router as sources × heads, the rows x_{i−2}, x_{i−1}, x_i, as the
// "layers connection" figures of Vadimbuildercxx/reflex_attention draw them. A large weight
// on x_{i−1} or x_{i−2} means that head builds its keys or values from an earlier layer.
#pragma once

#include <string>

namespace attic::models {
class GPT;
}

namespace attic::lab {

// One row of the grid per block i >= 2 (K_router left, V_router right), cells of `cell`
// pixels, signed colors with the values written in. Throws attic::Error when gpt has no
// route attention in blocks 2 and later.
std::string routers_svg(const models::GPT& gpt, int cell = 44);

}  // namespace attic::lab
