#include "ccl/grids/cartesian.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "ccl/error.hpp"

namespace ccl::grids {

namespace {

int wrap(int x, int n) {
  return ((x % n) + n) % n;
}

}  // namespace

Cartesian::Cartesian(std::vector<int> dims) : dims_(std::move(dims)) {
  if (dims_.empty()) throw Error("ccl::grids: a shape needs at least one dimension");
  long long size = 1;
  for (int d : dims_) {
    if (d < 1)
      throw Error("ccl::grids: dimension " + std::to_string(d) +
                  " in a shape (each must be at least 1)");
    size *= d;
    if (size > std::numeric_limits<int>::max())
      throw Error("ccl::grids: shape " + str() + " is too large");
  }
  size_ = static_cast<int>(size);
}

Cartesian Cartesian::parse(std::string_view text) {
  std::vector<int> dims;
  std::size_t at = 0;
  for (;;) {
    const std::size_t end = std::min(text.find_first_of("xX*", at), text.size());
    const std::string_view part = text.substr(at, end - at);
    int d = 0;
    const auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), d);
    if (part.empty() || ec != std::errc{} || ptr != part.data() + part.size() || d < 1) {
      throw Error("ccl::grids: '" + std::string(text) +
                  "' is not a shape (dimensions of at least 1 joined by 'x', e.g. 4x4x2)");
    }
    dims.push_back(d);
    if (end == text.size()) break;
    at = end + 1;
  }
  return Cartesian(std::move(dims));
}

Cartesian Cartesian::balanced(int size, int ndims) {
  if (size < 1 || ndims < 1) {
    throw Error("ccl::grids: no shape of " + std::to_string(ndims) + " dimensions for " +
                std::to_string(size) + " members");
  }
  // Prime factors, largest first, each given to the dimension with the smallest product so far.
  std::vector<int> factors;
  int n = size;
  for (int p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      factors.push_back(p);
      n /= p;
    }
  }
  if (n > 1) factors.push_back(n);
  std::sort(factors.rbegin(), factors.rend());
  std::vector<int> dims(static_cast<std::size_t>(ndims), 1);
  for (int f : factors) *std::min_element(dims.begin(), dims.end()) *= f;
  std::sort(dims.rbegin(), dims.rend());
  return Cartesian(std::move(dims));
}

std::string Cartesian::str() const {
  std::string s;
  for (int d : dims_) {
    if (!s.empty()) s += 'x';
    s += std::to_string(d);
  }
  return s;
}

int Cartesian::torus_diameter() const {
  int hops = 0;
  for (int d : dims_) hops += d / 2;
  return hops;
}

int Cartesian::torus_links() const {
  int links = 0;
  for (int d : dims_) links += d > 1 ? 2 : 0;
  return links;
}

std::vector<int> Cartesian::coords(int rank) const {
  if (rank < 0 || rank >= size_) {
    throw Error("ccl::grids: rank " + std::to_string(rank) + " outside shape " + str());
  }
  std::vector<int> c(dims_.size());
  for (std::size_t d = dims_.size(); d-- > 0;) {
    c[d] = rank % dims_[d];
    rank /= dims_[d];
  }
  return c;
}

int Cartesian::rank(std::span<const int> coords) const {
  if (coords.size() != dims_.size()) {
    throw Error("ccl::grids: " + std::to_string(coords.size()) + " coordinates for shape " + str());
  }
  int r = 0;
  for (std::size_t d = 0; d < dims_.size(); ++d) r = r * dims_[d] + wrap(coords[d], dims_[d]);
  return r;
}

int Cartesian::neighbour(int rank, int d, int step) const {
  if (d < 0 || d >= ndims()) {
    throw Error("ccl::grids: dimension " + std::to_string(d) + " of shape " + str());
  }
  std::vector<int> c = coords(rank);
  c[static_cast<std::size_t>(d)] += step;
  return this->rank(c);
}

void Cartesian::check_free(const std::vector<bool>& free) const {
  if (free.size() != dims_.size()) {
    throw Error("ccl::grids: " + std::to_string(free.size()) + " free/fixed flags for shape " +
                str());
  }
}

int Cartesian::sub_index(int rank, const std::vector<bool>& free) const {
  check_free(free);
  const std::vector<int> c = coords(rank);
  int index = 0;
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    if (!free[d]) index = index * dims_[d] + c[d];
  }
  return index;
}

int Cartesian::sub_rank(int rank, const std::vector<bool>& free) const {
  check_free(free);
  const std::vector<int> c = coords(rank);
  int r = 0;
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    if (free[d]) r = r * dims_[d] + c[d];
  }
  return r;
}

Cartesian Cartesian::sub_shape(const std::vector<bool>& free) const {
  check_free(free);
  std::vector<int> dims;
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    if (free[d]) dims.push_back(dims_[d]);
  }
  if (dims.empty()) dims.push_back(1);
  return Cartesian(std::move(dims));
}

}  // namespace ccl::grids
