#pragma once
// Contour plots of the objective over a pair of parameters: the COMPLETE trials as points, and
// a grid of values predicted by the importance's random forest with every other parameter
// averaged over its domain (a partial dependence), so the surface shows what the pair does on
// its own.
//
//   const ContourData c = contourData(space, trials, "train.lr", "data.batch_size");
//   for (int j = 0; j < c.gridSize; ++j) for (int i = 0; i < c.gridSize; ++i)
//     fill(c.gridUnits[i], c.gridUnits[j], c.z[j * c.gridSize + i]);

#include "core/search/analysis_axis.h"
#include "core/search/random_forest.h"
#include "core/search/trial.h"

#include <string>
#include <vector>

namespace tw::search {

struct ContourOptions {
  int gridSize = 30;
  ForestOptions forest;  // as the importance's
  size_t objective = 0;
};

struct ContourPoint {
  int number = 0;
  double x = 0.0, y = 0.0;          // the parameters' values
  double xUnit = 0.0, yUnit = 0.0;  // on the axes
  double objective = 0.0;
};

struct ContourData {
  AnalysisAxis xAxis, yAxis;
  std::vector<ContourPoint> points;  // trials where both parameters were active
  int gridSize = 0;                  // 0 when there are too few trials for a surface
  std::vector<double> gridUnits;     // cell centres along either axis, (i + 0.5) / gridSize
  std::vector<double> z;             // gridSize * gridSize, row j (y) after row j - 1
  double zMin = 0.0, zMax = 0.0;
};

// Throws std::invalid_argument for a key not in the space or the same key twice.
ContourData contourData(const SearchSpace &space, const std::vector<Trial> &trials, const std::string &xKey,
                        const std::string &yKey, const ContourOptions &options = {});

}  // namespace tw::search
