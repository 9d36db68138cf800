#pragma once
// How a finite mechanism releases an index (the draw policy, docs/draw-policy.md): with probability λ an index of the
// data part w/2^63, else one of the public base B. The released law
//     Pr(x) = (1 − λ)·B(x) + λ·w_x/2^63
// is exact (release_table.hpp): the coin compares random bits with the exact binary expansion of one double, λ itself
// (a mixture's weight) or 1 − λ (a clip box's floor mass, which can be far below the resolution of 1 − λ). A plan (λ, B and the unit box of w) is chosen once from public parameters so that
// EVERY data part inside the box gives a law that meets the mechanism's guarantee; a release only quantizes its
// target into the box. So the guarantee of the released law follows from the plan alone, whatever the solver's
// rounding, and a check of it needs the plan, not the inputs (the privacy audit checks both).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "base/draw.hpp"
#include "base/randomness.hpp"
#include "base/release_table.hpp"

namespace privsample {

struct ReleasePlan {
  // The coin's double: λ when share_is_data, else 1 − λ; the other side's probability is 1 minus it, exactly.
  double share = 0.0;
  bool share_is_data = true;
  PublicBase base;
  UnitBox box;  // of the data part (empty: any pmf)

  [[nodiscard]] std::size_t size() const noexcept { return base.size(); }
  // λ and 1 − λ as doubles (the one that is not `share` rounded once).
  [[nodiscard]] double data_share() const noexcept { return share_is_data ? share : 1.0 - share; }
  [[nodiscard]] double base_share() const noexcept { return share_is_data ? 1.0 - share : share; }
  // One toss of the coin: true for the data part. Reads at least one word whatever the share (draw policy).
  [[nodiscard]] bool draws_data(RandomBits& bits) const { return bernoulli_fixed_cost(bits, share) == share_is_data; }
};

// Public weights as a base B: integers at a resolution of 2^-52 of their total (so every integer the plans compute
// with is a double), and at least 1 for every positive weight (a category with positive weight stays drawable).
[[nodiscard]] PublicBase quantized_base(std::span<const double> weights);

// A pure ε-LDP box [lo, hi] (hi_x <= e^ε·lo_x as doubles, privacy_box.hpp) as a plan: the floors are the base
// (the coin's double is 1 − λ = Σlo, B ∝ lo), the data part is what each output has above its floor, and its cap in
// units is the largest integer with λ·cap_x·2^-63 <= (e^ε − 1)(1 − λ)·B(x) as real numbers (e^ε − 1 rounded down,
// every product's rounding counted against it). Then every released law lies in [(1 − λ)B, e^ε(1 − λ)B]: ratio
// <= e^ε for any two inputs. A uniform lo gives the uniform base. When the caps cannot hold all 2^63 units (ε below
// the doubles' resolution) the floor mass is raised until they can, up to 1 (the base alone: one law for every input).
[[nodiscard]] ReleasePlan clip_release_plan(std::span<const double> lo, double epsilon);
[[nodiscard]] ReleasePlan uniform_clip_release_plan(std::size_t k, double floor, double epsilon);

// A mixture whose guarantee holds for ANY pmf as its data part (k-RR: λP + (1 − λ)·uniform): no box. The coin is on
// λ's bits, or (by_base_share) on 1 − λ's, for a weight whose complement is far below the resolution of λ.
[[nodiscard]] ReleasePlan mixture_release_plan(double data_share, PublicBase base);
[[nodiscard]] ReleasePlan mixture_release_plan_by_base_share(double base_share, PublicBase base);

// A mixture whose data part must lie in the class [c1·B, c2·B] (0 <= c1 < 1 < c2; the local linear sampler's N_γ(P0)
// is c1 = 1/γ, c2 = γ): the box rounded inward in units, so the released law is the mechanism with reference B applied
// to a member of the class. If the class is too narrow for the units to hold a member other than B, the plan releases
// the base alone (B itself is a member).
[[nodiscard]] ReleasePlan class_release_plan(ReleasePlan mixture, double c1, double c2);

// The data part a clip output q needs under a plan from clip_release_plan: (q − (1 − λ)B)/λ, so that the released
// law is q up to the units' rounding. Fixed work; q: one entry per atom.
[[nodiscard]] std::vector<double> clip_data_target(const ReleasePlan& plan, std::span<const double> q);
// The same into `target` (q's size; may be q itself).
void clip_data_target_into(const ReleasePlan& plan, std::span<const double> q, std::span<double> target);

// One release of the data part `units` (Σ = 2^63, one entry per atom) under `plan`: the coin, one scan of the units
// (O(k), the same operations for every input) and a draw of the base, whichever side the coin picks; the coin keeps
// one of the two. Release::draw_once, for callers that keep
// the plan and the units' buffer between releases. Not inlined: one copy of the draw serves both (the client's size).
[[nodiscard, gnu::noinline]] std::size_t draw_release_once(const ReleasePlan& plan,
                                                          std::span<const std::uint64_t> units, RandomBits& bits);

// One input's release: the plan and the input's units (Σ = 2^63, inside the plan's box).
class Release {
 public:
  // data_target: the data part as a pmf (one entry per atom), quantized into the plan's box.
  Release(std::shared_ptr<const ReleasePlan> plan, std::span<const double> data_target);

  [[nodiscard]] const ReleasePlan& plan() const noexcept { return *plan_; }
  [[nodiscard]] const std::vector<std::uint64_t>& units() const noexcept { return units_; }
  // The released probability of x, rounded once to a double (the exact value is (1 − λ)B(x) + λ·units_x/2^63).
  [[nodiscard]] double probability(std::size_t x) const;
  [[nodiscard]] std::vector<double> probabilities() const;

  // A draw of one index: the coin, then the base or one scan of the units (O(k), the same operations for every input).
  [[nodiscard]] std::size_t draw_once(RandomBits& bits) const;
  // An IndexDraw for `draws` releases: the scan for one, an alias table (built once, O(1) per draw) for more.
  [[nodiscard]] static IndexDraw draw(Release release, std::size_t draws);

 private:
  std::shared_ptr<const ReleasePlan> plan_;
  std::vector<std::uint64_t> units_;
};

// The release of a clip output q under `plan`, a plan from clip_release_plan or uniform_clip_release_plan over q's box:
// its data part is clip_data_target(plan, q), so that the released law is q up to the units' rounding.
[[nodiscard]] Release clip_release(ReleasePlan plan, std::span<const double> q);

}  // namespace privsample
