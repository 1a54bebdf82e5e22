// Chapter 12's exercise: GPT::generate written again from forward and tensor ops.
#pragma once

#include "models/gpt.h"

// idx [1, T0] int64 -> [1, T0 + n]: n new tokens appended, one at a time. For each one, with
// the sequence so far idx [1, T]:
//   ctx = the last min(T, block_size) tokens            [1, Tc]
//   l = forward(ctx).logits / temperature               [1, 1, V] -> [V]
//   l[v] = -inf where l[v] < the top_k-th largest of l   (only when 0 < top_k < V)
//   p = softmax(l); next = the first i with p[0] + ... + p[i] > u, u = gen.uniform()
// and temperature 0 takes argmax(l) instead, drawing nothing. Runs without a graph and in
// eval mode; the model is back in train mode afterwards.
attic::Tensor my_generate(attic::models::GPT& model, attic::Tensor idx, int64_t n,
                          double temperature, int64_t top_k, attic::Generator& gen);
