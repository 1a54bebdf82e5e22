// Chapter 20's exercise: causal softmax attention for one query row per position, in one
// pass over the keys, with a running maximum so that no exponential overflows (the online
// softmax of Milakov and Gimelshein 2018, which ELiTA's prefix sums use along time).
#pragma once

#include <vector>

// s [T] scores, v [T, D] values (row-major) -> y [T, D] with, for every t,
//   m_t = max_{j ≤ t} s_j
//   y_t = Σ_{j ≤ t} e^{s_j − m_t} v_j  /  Σ_{j ≤ t} e^{s_j − m_t}
// computed left to right in O(T·D): when the maximum grows from m to m', the running sums
// made with m are rescaled by e^{m − m'}.
std::vector<double> causal_softmax_prefix(const std::vector<double>& s, const std::vector<double>& v,
                                          int D);
