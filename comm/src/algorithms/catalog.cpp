// The algorithm catalog and selection. Today one algorithm per collective; selection takes the
// first entry for the shape's kind.
#include <array>

#include "builders.hpp"
#include "ccl/algorithm.hpp"
#include "ccl/error.hpp"

namespace ccl {

namespace {
using namespace algorithms;
constexpr std::array<Algorithm, 10> kCatalog{{
    {"binomial", CollKind::bcast, bcast_binomial},
    {"binomial", CollKind::reduce, reduce_binomial},
    {"recursive_doubling", CollKind::combine, combine_recursive_doubling},
    {"binomial", CollKind::scatter, scatter_binomial},
    {"binomial", CollKind::gather, gather_binomial},
    {"bruck", CollKind::concat, concat_bruck},
    {"pairwise", CollKind::index, index_pairwise},
    {"recursive_doubling", CollKind::prefix, prefix_recursive_doubling},
    {"direct", CollKind::shift, shift_direct},
    {"dissemination", CollKind::sync, sync_dissemination},
}};
}  // namespace

CollKind base_kind(CollKind k) {
  switch (k) {
    case CollKind::concatv: return CollKind::concat;
    case CollKind::gatherv: return CollKind::gather;
    case CollKind::scatterv: return CollKind::scatter;
    case CollKind::indexv: return CollKind::index;
    default: return k;
  }
}

std::span<const Algorithm> catalog() { return kCatalog; }

const Algorithm& select_algorithm(const Shape& shape) {
  const CollKind k = base_kind(shape.kind);
  for (const Algorithm& a : kCatalog) {
    if (a.kind == k) return a;
  }
  throw Error("ccl: no algorithm for " + std::string(name(shape.kind)));
}

Schedule build_schedule(const Shape& shape) { return select_algorithm(shape).build(shape); }

}  // namespace ccl
