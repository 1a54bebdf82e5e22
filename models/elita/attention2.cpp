#include "models/elita/attention2.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "nn/attention/declared_options.h"
#include "nn/init.h"

namespace attic::models::elita {

// "clip" | "stable" -> Numerics
Numerics parse_numerics(const std::string& text) {
  if (text == "clip") return Numerics::Clip;
  if (text == "stable") return Numerics::Stable;
  fail("elita numerics must be stable or clip, got '", text, "'");
}

// "relative" | "absolute" -> Positions
Positions parse_positions(const std::string& text) {
  if (text == "relative") return Positions::Relative;
  if (text == "absolute") return Positions::Absolute;
  fail("elita positions must be relative or absolute, got '", text, "'");
}

std::string to_string(Numerics n) { return n == Numerics::Clip ? "clip" : "stable"; }
std::string to_string(Positions p) { return p == Positions::Relative ? "relative" : "absolute"; }

// Sizes positive; absolute positions need the block_size they divide by.
void Attention2Options::validate() const {
  ATTIC_CHECK(width > 0 && heads > 0 && att_w > 0 && pos_w > 0,
              "Attention2: width, heads, att_w and pos_w must be positive, got ", width, ", ", heads,
              ", ", att_w, ", ", pos_w);
  ATTIC_CHECK(positions == Positions::Relative || block_size > 0,
              "Attention2: absolute positions need block_size > 0, got ", block_size);
  ATTIC_CHECK(dropout >= 0 && dropout < 1, "Attention2: dropout must be in [0, 1), got ", dropout);
}

// n, offset -> t [n], t_i = (offset + i) / (N − 1) with N = n (relative) or block_size
// (absolute). The original divides by N − 1 (acosharma/elita-transformer, main.py, a
// linspace over [0, 1]); its README writes i/n. A lone position is t_0 = 0.
Tensor positions(int64_t n, Positions mode, int64_t block_size, int64_t offset) {
  const int64_t last = (mode == Positions::Relative ? n : block_size) - 1;
  std::vector<double> t(size_t(std::max<int64_t>(n, 0)));
  for (int64_t i = 0; i < n; ++i) t[size_t(i)] = last > 0 ? double(offset + i) / double(last) : 0.0;
  return from_vector(t, {n});  // float64; parts() casts it to x's dtype
}

// options -> the module, parameters drawn as Keras draws them (build())
Attention2::Attention2(const Attention2Options& o) : options(o) { build(); }

void Attention2Args::bind(util::Options& o) {
  o.bind("att_w", att_w, "A, each head's value width (0: n_embd / n_head)");
  o.bind("pos_w", pos_w, "P, the sinusoids of each positional part");
  o.bind("numerics", numerics, "stable (exact) or clip (the original's ±20)");
  o.bind("positions", positions, "relative (i/(N−1), the original's) or absolute (i/(block_size−1))");
}

std::vector<nn::OptionAlias> Attention2Args::aliases() {
  return {{"elita_att_w", "att_w"}, {"elita_pos_w", "pos_w"}, {"elita_numerics", "numerics"},
          {"elita_positions", "positions"}};
}

std::string Attention2Args::record(const nn::AttentionArgs& given, int64_t n_embd, int64_t n_head) {
  const Attention2Args a = nn::read_options<Attention2Args>(given, "elita");
  (void)parse_numerics(a.numerics);  // the names are checked where the options are recorded
  (void)parse_positions(a.positions);
  const int64_t A = a.att_w > 0 ? a.att_w : n_embd / std::max<int64_t>(n_head, 1);
  return "att_w=" + std::to_string(A) + ",numerics=" + a.numerics + ",pos_w=" + std::to_string(a.pos_w) +
         ",positions=" + a.positions;
}

// The GPT's sublayer: W = C, H = NH, A = att_w (default hs), P = pos_w (16)
Attention2::Attention2(const nn::MixerOptions& o) {
  o.validate("Attention2");
  const Attention2Args a = nn::read_options<Attention2Args>(o.args, name());
  options.width = o.n_embd;
  options.heads = o.n_head;
  options.att_w = a.att_w > 0 ? a.att_w : o.n_embd / o.n_head;
  options.pos_w = a.pos_w;
  options.numerics = parse_numerics(a.numerics);
  options.positions = parse_positions(a.positions);
  options.block_size = o.block_size;
  options.dropout = o.dropout;
  build();
}

// Registers k1, k2, k3 [H, W], a1, a2, b1, b2, c [H, P, 1], value_weight, output_weight
// [H, W, A] and the output dropout.
void Attention2::build() {
  options.validate();
  const int64_t H = options.heads, W = options.width, A = options.att_w, P = options.pos_w;
  auto uniform = [&](const std::string& n, const Shape& shape) {
    Tensor t = empty(shape);
    nn::init::uniform_(t, -0.05, 0.05);  // Keras's random_uniform default
    return register_parameter(n, t);
  };
  auto glorot = [&](const std::string& n) {
    Tensor t = empty({H, W, A});
    nn::init::keras_glorot_uniform_(t);
    return register_parameter(n, t);
  };
  k1 = uniform("k1", {H, W});
  k2 = uniform("k2", {H, W});
  k3 = uniform("k3", {H, W});
  a1 = uniform("a1", {H, P, 1});
  a2 = uniform("a2", {H, P, 1});
  b1 = uniform("b1", {H, P, 1});
  b2 = uniform("b2", {H, P, 1});
  c = uniform("c", {H, P, 1});
  value_weight = glorot("value_weight");
  output_weight = glorot("output_weight");
  drop = register_module("drop", std::make_shared<nn::Dropout>(options.dropout));
}

// The position sinusoids' frequencies, phases and amplitudes are [H, P, 1] only because the
// original stores its vectors so; like biases, they do not decay. k1, k2, k3 [H, W] are
// projections of x, as the GPT's c_attn rows, and decay.
std::vector<std::string> Attention2::no_weight_decay() const { return {"a1", "a2", "b1", "b2", "c"}; }

// x [B, N, W] -> [B, N, W]; N ≤ block_size under absolute positions
void Attention2::check_input(const Tensor& x, int64_t offset) const {
  ATTIC_CHECK(x.defined() && x.dim() == 3 && x.size(2) == options.width && x.size(1) >= 1,
              "Attention2: x must be [B, N, ", options.width, "] with N >= 1, got ",
              x.defined() ? str(x.shape()) : std::string("undefined"));
  ATTIC_CHECK(options.positions == Positions::Relative || offset + x.size(1) <= options.block_size,
              "Attention2: absolute positions end at block_size ", options.block_size,
              ", got positions up to ", offset + x.size(1));
}

// x [B, N, W], t [N] -> s, d, r [B, H, N], v [B, H, N, A]
Attention2::Parts Attention2::parts(const Tensor& x, const Tensor& t) {
  ATTIC_CHECK(x.dim() == 3 && x.size(2) == options.width, "Attention2: x must be [B, N, ",
              options.width, "], got ", str(x.shape()));
  ATTIC_CHECK(t.dim() == 1 && t.size(0) == x.size(1), "Attention2: positions t must be [",
              x.size(1), "], got ", str(t.shape()));
  const int64_t N = x.size(1), H = options.heads, W = options.width, A = options.att_w;
  // π_i = Σ_p c_p sin(a_p t_i + b_p): [H, P, 1] against t [1, 1, N], summed over P
  const Tensor tt = t.to(x.dtype()).to(x.device()).view({1, 1, N});
  const Tensor pi1 = sum(c * sin(a1 * tt + b1), {1});  // [H, N]
  const Tensor pi2 = sum(c * sin(a2 * tt + b2), {1});  // [H, N]
  // k1·x_j, k2·x_i, k3·x_i for every head in one product: [B, N, 3H] -> [B, 3H, N]
  const Tensor kx = matmul(x, cat({k1, k2, k3}, 0).t()).transpose(1, 2);
  Parts p;
  p.s = kx.narrow(1, 0, H) + pi1;      // s_j = k1·x_j + π1_j
  p.d = kx.narrow(1, H, H);            // d_i = k2·x_i
  p.r = kx.narrow(1, 2 * H, H) + pi2;  // r_i = π2_i + k3·x_i
  // v_j = x_j Wv_h for every head in one product: Wv [H, W, A] as [W, H·A]
  p.v = split_heads(matmul(x, value_weight.permute({1, 0, 2}).reshape({W, H * A})), H);
  return p;
}

// y [B, H, N, A] -> [B, N, W]: out_i = Σ_h Wo_h y_{h,i}, as one product with Wo as [H·A, W]
Tensor Attention2::project_out(const Tensor& y) {
  const int64_t H = options.heads, W = options.width, A = options.att_w;
  return drop->forward(matmul(merge_heads(y), output_weight.permute({0, 2, 1}).reshape({H * A, W})));
}

// s, d, r [B, H, N], v [B, H, N, A]: checked to fit, for op
static void check_parts(const char* op, const Tensor& s, const Tensor& d, const Tensor& r,
                        const Tensor& v) {
  ATTIC_CHECK(s.defined() && d.defined() && r.defined() && v.defined() && s.dim() == 3 &&
                  d.shape() == s.shape() && r.shape() == s.shape() && v.dim() == 4 &&
                  v.size(0) == s.size(0) && v.size(1) == s.size(1) && v.size(2) == s.size(2),
              op, ": s, d, r must be [B, H, N] and v [B, H, N, A], got ",
              s.defined() ? str(s.shape()) : "undefined", ", ", d.defined() ? str(d.shape()) : "undefined",
              ", ", r.defined() ? str(r.shape()) : "undefined", " and ",
              v.defined() ? str(v.shape()) : "undefined");
}

// s, d, r [B, H, N], v [B, H, N, A] -> y [B, H, N, A]
Tensor prefix_softmax(Tensor s, Tensor d, Tensor r, const Tensor& v, Numerics numerics) {
  check_parts("prefix_softmax", s, d, r, v);
  if (numerics == Numerics::Clip) {
    // The original clips each part on its own to [−20, 20] (e^20 ≈ 4.9e8), and so bounds
    // its unshifted sums; clamp's gradient is 0 outside the range, as tf.clip_by_value's is.
    // The clipped parts then go through the same scan as Stable: its shifts cancel, so the
    // values are the original's up to rounding.
    s = clamp(s, -20.0, 20.0);
    d = clamp(d, -20.0, 20.0);
    r = clamp(r, -20.0, 20.0);
  }
  // Exact at any size of logit: the prefix sums are kept under the running maximum of s, and
  // each row under one more shift (ops/prefix_softmax_scan.cpp), one scan along N each way.
  return prefix_softmax_scan(s, d, r, v);
}

// s, d, r [B, H, N], v [B, H, N, A] -> y [B, H, N, A] through
// P [B, H, N, N + 1] = softmax([r_i + s_j (j ≤ i), d_i]) over the last dim
Tensor explicit_softmax(Tensor s, Tensor d, Tensor r, const Tensor& v, Numerics numerics) {
  check_parts("explicit_softmax", s, d, r, v);
  const int64_t N = s.size(2);
  if (numerics == Numerics::Clip) {
    s = clamp(s, -20.0, 20.0);
    d = clamp(d, -20.0, 20.0);
    r = clamp(r, -20.0, 20.0);
  }
  const Tensor logits = r.unsqueeze(-1) + s.unsqueeze(-2);  // [B, H, N, N]: r_i + s_j
  const Tensor later = logical_not(tril(ones({N, N}, TensorOptions(kBool).device(s.device()))));
  // softmax subtracts each row's maximum, so this form is exact at any logit size too
  const Tensor P = softmax(cat({masked_fill(logits, later, -INFINITY), d.unsqueeze(-1)}, -1), -1);
  return matmul(P.narrow(-1, 0, N), v) + P.narrow(-1, N, 1) * v;
}

// x [B, N, W] -> [B, N, W]
Tensor Attention2::forward(const Tensor& x, const nn::MixerContext&) {
  check_input(x, 0);
  const Parts p = parts(x, positions(x.size(1), options.positions, options.block_size));
  return project_out(prefix_softmax(p.s, p.d, p.r, p.v, options.numerics));
}

// x [B, N, W] -> [B, N, W], in O(N²)
Tensor Attention2::forward_explicit(const Tensor& x) {
  check_input(x, 0);
  const Parts p = parts(x, positions(x.size(1), options.positions, options.block_size));
  return project_out(explicit_softmax(p.s, p.d, p.r, p.v, options.numerics));
}

// A fresh state (m = −∞ or 0, S = Z = 0 at the first step), or nullptr under relative positions
std::unique_ptr<nn::MixerState> Attention2::start_decoding() const {
  // With relative positions every t_i changes when a token arrives: no state survives.
  if (options.positions != Positions::Absolute) return nullptr;
  return std::make_unique<State>();
}

// x [B, t, W] -> [B, t, W]: the recurrence of forward(), one token after another
Tensor Attention2::step(nn::MixerState& state, const Tensor& x, const nn::MixerContext&) {
  auto* from_start = dynamic_cast<State*>(&state);
  ATTIC_CHECK(from_start != nullptr, "Attention2::step: the state is not one Attention2::start_decoding made");
  State& st = *from_start;
  ATTIC_CHECK(options.positions == Positions::Absolute,
              "Attention2: step needs absolute positions; relative ones depend on the length");
  check_input(x, st.length);
  ATTIC_CHECK(!st.S.defined() || st.S.size(0) == x.size(0), "Attention2::step: the state holds ",
              st.S.defined() ? st.S.size(0) : 0, " sequences, x has ", x.size(0));
  const int64_t B = x.size(0), T = x.size(1), H = options.heads, A = options.att_w;
  const Parts p = parts(x, positions(T, Positions::Absolute, options.block_size, st.length));
  const bool stable = options.numerics == Numerics::Stable;
  if (!st.S.defined()) {
    const TensorOptions to = TensorOptions(x.dtype()).device(x.device());
    // Under Clip the shift is 0 for ever; under Stable it starts below every s.
    st.m = full({B, H, 1}, stable ? -INFINITY : 0.0, to);
    st.S = zeros({B, H, A}, to);
    st.Z = zeros({B, H, 1}, to);
  }
  std::vector<Tensor> ys;
  auto part = [&](const Tensor& all, int64_t i) {  // [B, H, 1], clipped as prefix_softmax clips
    const Tensor one = all.narrow(2, i, 1);
    return stable ? one : clamp(one, -20.0, 20.0);
  };
  for (int64_t i = 0; i < T; ++i) {
    const Tensor s = part(p.s, i), d = part(p.d, i), r = part(p.r, i);  // [B, H, 1]
    const Tensor v = p.v.narrow(2, i, 1).squeeze(2);                                         // [B, H, A]
    Tensor m = st.m, M = zeros({1}, TensorOptions(x.dtype()).device(x.device()));
    if (stable) {
      m = maximum(st.m, s.detach());
      const Tensor decay = exp(st.m - m);  // e^{−∞} = 0 at the first token, where S = Z = 0
      st.S = decay * st.S;
      st.Z = decay * st.Z;
      M = maximum(r.detach() + m, d.detach());
    }
    const Tensor w = exp(s - m);
    st.S = st.S + w * v;
    st.Z = st.Z + w;
    st.m = m;
    const Tensor er = exp(r + m - M), ed = exp(d - M);
    ys.push_back(((er * st.S + ed * v) / (er * st.Z + ed)).unsqueeze(2));  // [B, H, 1, A]
  }
  st.length += T;
  return project_out(ys.size() == 1 ? ys[0] : cat(ys, 2));
}

}  // namespace attic::models::elita
