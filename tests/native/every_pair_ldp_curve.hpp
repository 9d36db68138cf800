#pragma once
// The plain O(k²·m) search of the LDP curve that the accountant's pruned search replaced: for each ε, the largest
// hockey-stick sum Σ_y (W(i, y) − e^ε·W(j, y))_+ over every ordered pair of rows i ≠ j, summed left to right in y,
// capped at 1. The accountant test asks the pruned search to agree with it bit for bit; the accountant benchmark
// times it as the baseline.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <vector>

#include "analysis/accountant.hpp"

namespace privsample_reference {

inline std::vector<double> every_pair_ldp_curve(const privsample::ChannelMatrix& w,
                                                const std::vector<double>& epsilons) {
  const Eigen::MatrixXd rows = w.transpose();  // column i is row i of W, contiguous in y
  std::vector<double> out;
  for (const double eps : epsilons) {
    const double alpha = std::exp(eps);
    double worst = 0.0;
    for (Eigen::Index i = 0; i < rows.cols(); ++i) {
      for (Eigen::Index j = 0; j < rows.cols(); ++j) {
        if (i == j) continue;
        double sum = 0.0;
        for (Eigen::Index y = 0; y < rows.rows(); ++y) {
          const double term = rows(y, j) == 0.0 ? rows(y, i) : rows(y, i) - alpha * rows(y, j);
          if (term > 0.0) sum += term;
        }
        worst = std::max(worst, sum);
      }
    }
    out.push_back(std::min(worst, 1.0));
  }
  return out;
}

}  // namespace privsample_reference
