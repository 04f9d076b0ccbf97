#include "ccl/grids/multilink_plan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>

namespace ccl::grids {

namespace {

// Max-flow (Dinic) on real capacities: small graphs, one per step.
class Flow {
 public:
  explicit Flow(int nodes) : adj_(static_cast<std::size_t>(nodes)) {}
  int add(int from, int to, double cap) {
    adj_[static_cast<std::size_t>(from)].push_back(static_cast<int>(edges_.size()));
    edges_.push_back({to, cap});
    adj_[static_cast<std::size_t>(to)].push_back(static_cast<int>(edges_.size()));
    edges_.push_back({from, 0});
    return static_cast<int>(edges_.size()) - 2;
  }
  double flow_on(int edge) const { return edges_[static_cast<std::size_t>(edge) + 1].cap; }
  double run(int s, int t, double eps) {
    double total = 0;
    while (levels(s, t, eps)) {
      next_.assign(adj_.size(), 0);
      while (const double f = push(s, t, INFINITY, eps)) total += f;
    }
    return total;
  }

 private:
  struct Edge {
    int to;
    double cap;
  };
  bool levels(int s, int t, double eps) {
    level_.assign(adj_.size(), -1);
    std::queue<int> q;
    level_[static_cast<std::size_t>(s)] = 0;
    q.push(s);
    while (!q.empty()) {
      const int v = q.front();
      q.pop();
      for (int e : adj_[static_cast<std::size_t>(v)]) {
        const Edge& x = edges_[static_cast<std::size_t>(e)];
        if (x.cap > eps && level_[static_cast<std::size_t>(x.to)] < 0) {
          level_[static_cast<std::size_t>(x.to)] = level_[static_cast<std::size_t>(v)] + 1;
          q.push(x.to);
        }
      }
    }
    return level_[static_cast<std::size_t>(t)] >= 0;
  }
  double push(int v, int t, double f, double eps) {
    if (v == t) return f;
    auto& list = adj_[static_cast<std::size_t>(v)];
    for (int& i = next_[static_cast<std::size_t>(v)]; i < static_cast<int>(list.size()); ++i) {
      const int e = list[static_cast<std::size_t>(i)];
      Edge& x = edges_[static_cast<std::size_t>(e)];
      if (x.cap <= eps ||
          level_[static_cast<std::size_t>(x.to)] != level_[static_cast<std::size_t>(v)] + 1)
        continue;
      if (const double got = push(x.to, t, std::min(f, x.cap), eps); got > eps) {
        x.cap -= got;
        edges_[static_cast<std::size_t>(e ^ 1)].cap += got;
        return got;
      }
    }
    return 0;
  }
  std::vector<Edge> edges_;
  std::vector<std::vector<int>> adj_;
  std::vector<int> level_, next_;
};

// Blocks of one step with the same usable links.
struct Class {
  std::vector<int> links;           // link indices, ascending
  std::vector<std::size_t> blocks;  // indices into the step's displacements
};

// The flow of each class to each of its links when every link may carry at most `cap` blocks;
// returns the blocks moved.
double spread(const std::vector<Class>& classes, int links, double cap,
              std::vector<std::vector<double>>* out) {
  const int source = 0, sink = 1, first_class = 2,
            first_link = 2 + static_cast<int>(classes.size());
  Flow f(first_link + links);
  std::vector<std::vector<int>> edge(classes.size());
  double total = 0;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const double n = static_cast<double>(classes[c].blocks.size());
    total += n;
    f.add(source, first_class + static_cast<int>(c), n);
    for (int l : classes[c].links)
      edge[c].push_back(f.add(first_class + static_cast<int>(c), first_link + l, n));
  }
  for (int l = 0; l < links; ++l) f.add(first_link + l, sink, cap);
  const double moved = f.run(source, sink, 1e-12 * std::max(total, 1.0));
  if (out != nullptr) {
    out->assign(classes.size(), {});
    for (std::size_t c = 0; c < classes.size(); ++c) {
      for (int e : edge[c]) (*out)[c].push_back(f.flow_on(e));
    }
  }
  return moved;
}

// Shares in units of kUnits, proportional to `weights`, adding up exactly (largest remainders).
std::vector<std::uint32_t> units_of(const std::vector<double>& weights, std::uint32_t units) {
  double sum = 0;
  for (double w : weights) sum += w;
  std::vector<std::uint32_t> out(weights.size());
  std::vector<std::pair<double, std::size_t>> rest;
  std::uint32_t given = 0;
  for (std::size_t i = 0; i < weights.size(); ++i) {
    const double exact = sum > 0 ? weights[i] / sum * units
                                 : static_cast<double>(units) / static_cast<double>(weights.size());
    out[i] = static_cast<std::uint32_t>(std::floor(exact));
    given += out[i];
    rest.emplace_back(exact - out[i], i);
  }
  std::sort(rest.begin(), rest.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  for (std::size_t i = 0; given < units; ++i, ++given) ++out[rest[i % rest.size()].second];
  return out;
}

}  // namespace

MultilinkPlan::MultilinkPlan(const Cartesian& torus) : TorusPlan(torus) {
  const int k = torus_.ndims();
  arrivals_.assign(static_cast<std::size_t>(torus_.torus_diameter()), {});
  blocks_.assign(arrivals_.size(), 0);
  std::vector<std::vector<std::vector<int>>> by_step(arrivals_.size());
  std::vector<std::vector<std::uint32_t>> origins(arrivals_.size());  // beside by_step's blocks
  std::vector<std::vector<int>> all = displacements();
  for (std::size_t o = 1; o <= all.size(); ++o) {
    std::vector<int>& x = all[o - 1];
    int hops = 0;
    for (int d = 0; d < k; ++d) hops += distance(d, x[static_cast<std::size_t>(d)]);
    by_step[static_cast<std::size_t>(hops - 1)].push_back(std::move(x));
    origins[static_cast<std::size_t>(hops - 1)].push_back(static_cast<std::uint32_t>(o));
  }
  for (std::size_t s = 0; s < by_step.size(); ++s) {
    const auto& blocks = by_step[s];
    // Classes by usable links: one per non-zero coordinate, both for an antipodal one.
    std::map<std::vector<int>, std::size_t> index;
    std::vector<Class> classes;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      std::vector<int> links;
      for (int d = 0; d < k; ++d) {
        const int x = blocks[i][static_cast<std::size_t>(d)];
        if (x == 0) continue;
        if (antipodal(d, x) || x > 0) links.push_back(Link{d, +1}.index());
        if (antipodal(d, x) || x < 0) links.push_back(Link{d, -1}.index());
      }
      auto [it, fresh] = index.emplace(links, classes.size());
      if (fresh) classes.push_back(Class{links, {}});
      classes[it->second].blocks.push_back(i);
    }
    // The least per-link load that moves every block, by bisection.
    const double total = static_cast<double>(blocks.size());
    double lo = links_ > 0 ? total / links_ : total, hi = total;
    for (int iter = 0; iter < 60 && hi - lo > 1e-9 * total; ++iter) {
      const double mid = 0.5 * (lo + hi);
      (spread(classes, 2 * k, mid, nullptr) >= total * (1 - 1e-12) ? hi : lo) = mid;
    }
    std::vector<std::vector<double>> flow;
    spread(classes, 2 * k, hi, &flow);
    for (std::size_t c = 0; c < classes.size(); ++c) {
      const std::vector<std::uint32_t> units = units_of(flow[c], kUnits);
      for (std::size_t i : classes[c].blocks) {
        std::uint32_t first = 0;
        for (std::size_t l = 0; l < classes[c].links.size(); ++l) {
          if (units[l] == 0) continue;
          arrivals_[s].push_back(
              Piece{origins[s][i], Link::of(classes[c].links[l]), first, units[l], kUnits});
          first += units[l];
        }
      }
    }
    blocks_[s] = static_cast<int>(blocks.size());
  }
}

}  // namespace ccl::grids
