#include "lab/run_result_json.h"

namespace attic::lab {

using namespace train;
using namespace util;

json::Value to_json(const RunResult& r) {
  json::Value::Array evals;
  for (const EvalPoint& e : r.evals)
    evals.push_back(json::Value::Array{e.iter, e.seconds, e.train, e.val});
  return json::Value::Object{{"params", r.params},
                             {"iters", r.iters},
                             {"epochs", r.epochs},
                             {"best_val", r.best_val},
                             {"ms_per_iter", r.ms_per_iter},
                             {"tokens_per_s", r.tokens_per_s},
                             {"peak_memory_bytes", int64_t(r.peak_bytes)},
                             {"device", r.device},
                             {"val_chars_per_token", r.val_chars_per_token},
                             {"evals", std::move(evals)}};
}

RunResult run_result_from_json(const json::Value& v, const std::string& what) {
  try {
    RunResult r;
    r.params = v.at("params").as_int();
    r.iters = v.at("iters").as_int();
    r.epochs = v.find("epochs") ? v.at("epochs").as_int() : 0;  // a result.json from before max_epochs
    r.best_val = v.at("best_val").as_double();
    r.ms_per_iter = v.at("ms_per_iter").as_double();
    r.tokens_per_s = v.at("tokens_per_s").as_double();
    r.peak_bytes = size_t(v.at("peak_memory_bytes").as_int());
    r.device = v.at("device").as_string();
    // A result.json from before BPE datasets is a char run's.
    r.val_chars_per_token = v.find("val_chars_per_token") ? v.at("val_chars_per_token").as_double() : 1.0;
    for (const json::Value& e : v.at("evals").as_array()) {
      const json::Value::Array& a = e.as_array();
      ATTIC_CHECK(a.size() == 4, "an eval must be [iter, seconds, train, val], got ", a.size(),
                  " numbers");
      r.evals.push_back({a[0].as_int(), a[1].as_double(), a[2].as_double(), a[3].as_double()});
    }
    return r;
  } catch (const Error& e) {
    fail(what, ": ", e.what());
  }
}

}  // namespace attic::lab
