#pragma once
// TensorBoard's smoothing: an exponential moving average with its start-up bias removed, so the
// first points are not dragged towards zero. Computed over every recorded point, before any
// decimation, so what is drawn does not depend on how many points fit on the screen.
//
//   DebiasedEma ema(0.9);
//   for (auto &p : points) p.setY(ema.next(p.y()));

namespace tw::ui {

class DebiasedEma {
 public:
  explicit DebiasedEma(double weight = 0.0) : m_weight(weight) {}
  double next(double value) {
    m_average = m_weight * m_average + (1.0 - m_weight) * value;
    m_decay *= m_weight;
    // 1 - weight^n is the share of the average that real values make up after n of them.
    return m_weight > 0.0 ? m_average / (1.0 - m_decay) : value;
  }

 private:
  double m_weight;
  double m_average = 0.0;
  double m_decay = 1.0;  // weight^n
};

}  // namespace tw::ui
