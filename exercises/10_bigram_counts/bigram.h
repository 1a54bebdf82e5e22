// Chapter 10's exercise: the bigram model by counting. Its table P is the exact maximum-
// likelihood answer to the question the trained nn::Embedding(V, V) of 10.1 answers by
// gradient descent: P[a, b] is the probability that b follows a.
#pragma once

#include "data/data.h"
#include "ops/ops.h"

// ids [N] int64, every id in [0, V) -> counts [V, V] float64:
//   counts[a, b] = #{t < N - 1 : ids[t] = a and ids[t + 1] = b}      (N - 1 pairs in all)
attic::Tensor bigram_counts(const attic::Tensor& ids, int64_t V);

// counts [V, V] -> P [V, V] float64, each row a distribution, smoothed by alpha >= 0:
//   P[a, b] = (counts[a, b] + alpha) / (Σ_b' counts[a, b'] + V alpha)
// (alpha = 0 is the maximum-likelihood table; a row with no counts is then 0 / 0.)
attic::Tensor bigram_probs(const attic::Tensor& counts, double alpha);

// P [V, V], ids [N] int64 -> the mean negative log-likelihood of its N - 1 pairs, in nats:
//   -(1 / (N - 1)) Σ_t ln P[ids[t], ids[t + 1]]
// +inf when some pair has probability 0.
double bigram_nll(const attic::Tensor& P, const attic::Tensor& ids);
