#pragma once
// The local clip sampler around a public prior P0 (Ghoukasian, Lee, Asoodeh, "Locally Optimal Private Sampling:
// Beyond the Global Minimax", NeurIPS 2025, Theorem 5.1), on categories and on grid cells. Page: README.md beside this
// file.
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "mechanisms/cells.hpp"
#include "mechanisms/neighbourhood.hpp"
#include "mechanisms/sampler.hpp"
#include "mechanisms/spec.hpp"
#include "model/divergence.hpp"
#include "privacy/privacy_box.hpp"
#include "privacy/release_plan.hpp"
#include "solver/clip_normalise.hpp"

namespace privsample {

// What 'local' releases for an input outside N_γ(P0) in the trivial regime ε >= 2 ln γ (README.md#trivial-regime):
// `clip`, the library's default, clips it into the box [b·P0, b·e^ε·P0]; `projection`, the paper's sampler, releases
// its projection P̂ onto N_γ(P0). Both are ε-LDP, both release P on N_γ(P0), and outside the trivial regime they are
// the same sampler.
enum class LocalOutside { clip, projection };

// options.outsideNeighbourhood: absent or "clip" → clip, "projection" → projection; anything else is refused
// (std::invalid_argument naming the option and its value).
[[nodiscard]] LocalOutside local_outside_of(const MechanismOptions& options);

// The box of the local clip sampler (Theorem 5.1) around prior weights w (any positive scale: a pmf on categories or
// cell masses): [b·w, b·e^ε·w] with b = (γ+1)/(γ+e^ε), computed through e^{−ε} (no overflow up to ε = 700), floors
// raised toward privacy and underflowing entries handled by `rule` (privacy_box.hpp). ε and γ must be validated.
// With `projection` in the trivial regime the box is N_γ(P0)'s own, [w/γ, γ·w]: N_γ(P0) is the class
// P̃_{1/γ,γ,P0}, and one clip-normalise into a class's box is the f-projection onto it for every f (Park et al.), so
// the output is P̂. Its ends differ by γ² <= e^ε (floors raised toward privacy all the same), and its floors are
// above b·w (b <= 1/γ exactly when γ² <= e^ε), so it refuses no prior the clip box accepts.
[[nodiscard]] PrivacyBox local_clip_box(std::span<const double> prior, double epsilon, double gamma,
                                        UnderflowRule rule = UnderflowRule::refuse,
                                        LocalOutside outside = LocalOutside::clip);

// Ghoukasian, Lee, Asoodeh, "Locally Optimal Private Sampling", Theorem 5.1 (README.md beside this file).
// q(x) = clip(P(x)/r_P; b·p0(x), b·e^ε·p0(x)) with b = (γ+1)/(γ+e^ε) around a public prior P0.
// Guarantee: pure ε-LDP for EVERY input (in or outside N_γ(P0)): b·p0 <= q <= b·e^ε·p0 exactly in floating
// point. Sparse users whose support has P0-mass below 1/(γ+1) have no normaliser r_P; clip_normalise's Case B
// gives the limit (support at the ceiling, the rest at one common ratio), which equals applying the
// sampler to the f-projection P̂ of P onto N_γ(P0) (the paper's extension, README.md#proof-sketch).
// Worst case over N_γ(P0): R_loc = chord(r1, r2), r1 = (e^ε+γ)/(γ(γ+1)), r2 = γ(e^ε+γ)/(e^ε(γ+1)); 0 when
// ε >= 2 ln γ (then q = P on N_γ(P0)). There, options.outsideNeighbourhood = "projection" (LocalOutside) releases
// the paper's P̂ for inputs outside N_γ(P0) through the box [p0/γ, γ·p0] instead (local_clip_box). It is the local minimax risk when P0 splits into γ+1 blocks of equal
// mass; otherwise an upper bound (README.md#assumptions).
// A clip sampler (sampler.hpp): distribution(), normaliser() (r_P, or 0 in Case B where no normaliser exists: the
// limit r → 0), guarantee(), epsilon(), sample() and the named worst_case_risk come from there.
// On grid cells (cells.md#local-clip-sampler) the prior is a density's cell masses (zeros allowed: those cells are
// never output, nor are cells whose floor would underflow).
class LocalClipSampler : public ClipSampler<LocalClipSampler> {
 public:
  static constexpr MechanismSpec spec{"local", MechanismSpace::finite, NotionRule::pure_epsilon, kPriorGammaOptions,
                                      kOutsideNeighbourhoodOption, {},
                                      "locally minimax clip sampler around a prior (Ghoukasian et al. Thm 5.1)",
                                      "the local clip sampler",
                                      "Local clip sampler (Ghoukasian, Lee, Asoodeh): uses a public prior P0 "
                                      "and is optimal for histograms within a factor γ of it; much closer to P "
                                      "when P looks like P0."};
  static constexpr MechanismSpec cells_spec{"local", MechanismSpace::continuous, NotionRule::pure_epsilon,
                                            kPriorGammaOptions, kOutsideNeighbourhoodOption, {},
                                            "locally minimax clip sampler on a grid (Ghoukasian et al. Thm 5.1)"};
  [[nodiscard]] static LocalClipSampler make(const MechanismOptions& options);
  [[nodiscard]] static LocalClipSampler make_on_cells(const MechanismOptions& options);

  // On categories: prior validated (every entry finite and > 0, counts or probabilities), one floor per category.
  LocalClipSampler(double epsilon, std::vector<double> prior, double gamma, LocalOutside outside = LocalOutside::clip);

  // On categories (hist must have the prior's length).
  [[nodiscard]] ClipNormalised solve(std::span<const double> hist,
                                     RootSchedule schedule = RootSchedule::adaptive) const;
  [[nodiscard]] std::vector<double> distribution(std::span<const double> input) const;
  [[nodiscard]] double normaliser(std::span<const double> input) const;
  // The exact release for this input (release_plan.hpp): the fixed schedule's q over the floors b·p0.
  [[nodiscard]] Release release(std::span<const double> input) const;
  // k must equal the prior's length (the number of cells on cells).
  using SamplerBase::worst_case_risk;
  [[nodiscard]] double worst_case_risk(const FDivergence& f, std::size_t k) const;
  // For an analyst (analysis/estimate.hpp): on its identity box b·P0 <= P <= b·e^ε·P0 the sampler releases P itself
  // (nothing is clipped, r_P = 1), so q = 1·P + 0 there; in the trivial regime (ε >= 2 ln γ) the box holds N_γ(P0)
  // (with outsideNeighbourhood = "projection" there, the identity box is N_γ(P0) itself). With k >= 2 no user holding
  // one item is in it: the caveat says so (outside_region_caveat of neighbourhood.hpp), as local-linear's does.
  // Elsewhere in N_γ(P0) it is not affine and no unbiased estimator of P̄ exists from the counts (an unbiased one would
  // have to be affine in each user's Q): the map's caveat says so, with the bias bound R_TV per category. On
  // categories only (nothing on cells).
  [[nodiscard]] std::optional<AffineMap> affine_map(std::size_t k) const;
  // N_γ(P0) holds no point mass (a point mass has P/P0 = 0 < 1/γ elsewhere).
  [[nodiscard]] std::string point_mass_caveat() const;
  [[nodiscard]] std::string risk_class() const { return neighbourhood_risk_class(); }
  [[nodiscard]] double gamma() const noexcept { return gamma_; }
  [[nodiscard]] const std::vector<double>& prior() const noexcept { return prior_; }
  [[nodiscard]] std::optional<std::size_t> categories() const noexcept { return prior_.size(); }
  // What a user holding only item x releases, for k categories (spec.hpp); nothing on cells.
  [[nodiscard]] std::optional<PointMassLaw> point_mass_law(std::size_t k) const;
  [[nodiscard]] const OnCells* on_cells() const noexcept { return cells_.get(); }

 private:
  LocalClipSampler(double epsilon, double gamma);  // before its support is set (make_on_cells)
  double gamma_;
  std::vector<double> prior_;  // on cells: the normalised prior cell masses
  PrivacyBox box_;
  LocalOutside outside_ = LocalOutside::clip;
  std::shared_ptr<const OnCells> cells_;
};

// R_loc(ε, γ, f) of Theorem 5.1.
[[nodiscard]] double local_clip_risk(const FDivergence& f, double epsilon, double gamma);

}  // namespace privsample
