#include "ccl/grids/torus.hpp"

#include "ccl/error.hpp"
#include "torus_algorithms.hpp"

namespace ccl::grids {

namespace {

void check_dim(int ndims, int d) {
  if (d < 0 || d >= ndims) {
    throw Error("ccl::grids::Torus: no dimension " + std::to_string(d) + " in a torus of " +
                std::to_string(ndims) + " dimensions");
  }
}

}  // namespace

Cartesian torus_shape(std::string_view text, int size, int ndims) {
  if (text.empty()) return Cartesian::balanced(size, ndims);
  Cartesian shape = Cartesian::parse(text);
  if (shape.size() != size) {
    throw Error("ccl::grids: torus " + shape.str() + " has " + std::to_string(shape.size()) +
                " members; the group has " + std::to_string(size));
  }
  return shape;
}

void register_torus_algorithms() {
  register_algorithm(&concat_torus_qcdoc);
  register_algorithm(&concat_torus_multilink);
}

std::vector<Params> torus_candidates(const Shape& s) {
  if (s.kind != CollKind::concat || s.torus.empty()) return {};
  return {Params{}};
}

Torus::Torus(const Group& g, Cartesian shape) : group_(g), shape_(std::move(shape)) {
  if (shape_.size() != g.size()) {
    throw Error("ccl::grids::Torus: torus " + shape_.str() + " has " +
                std::to_string(shape_.size()) + " members; the group has " +
                std::to_string(g.size()));
  }
  register_torus_algorithms();
  group_.set_torus(std::vector<int>(shape_.dims().begin(), shape_.dims().end()));
}

std::vector<bool> Torus::line_flags(int ndims, int d) {
  check_dim(ndims, d);
  std::vector<bool> free(static_cast<std::size_t>(ndims), false);
  free[static_cast<std::size_t>(d)] = true;
  return free;
}

std::vector<bool> Torus::slab_flags(int ndims, int d) {
  check_dim(ndims, d);
  std::vector<bool> free(static_cast<std::size_t>(ndims), true);
  free[static_cast<std::size_t>(d)] = false;
  return free;
}

Group Torus::sub(const std::vector<bool>& free) const {
  const Split s = sub_split(shape_, group_.rank(), free);
  return form(group_, s, group_.label() + " sub-torus " + std::to_string(s.color));
}

Group Torus::line(int d) const {
  return sub(line_flags(shape_.ndims(), d));
}
Group Torus::slab(int d) const {
  return sub(slab_flags(shape_.ndims(), d));
}

std::vector<Group> Torus::sub_all(sim::World& world, std::span<const Group> views,
                                  const Cartesian& shape, const std::vector<bool>& free) {
  if (shape.size() != static_cast<int>(views.size())) {
    throw Error("ccl::grids::Torus: torus " + shape.str() + " has " + std::to_string(shape.size()) +
                " members; the group has " + std::to_string(views.size()));
  }
  return form(world, views, [&](int r) { return sub_split(shape, r, free); });
}

}  // namespace ccl::grids
