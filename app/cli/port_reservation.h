#pragma once
// A rendezvous port that stays ours from the moment it is chosen until the ranks have it. A probe
// that binds port 0, reads the number and closes the socket leaves a window in which another
// launcher's probe (parallel multi-rank trials of a sweep) or any program gets the same port.
// A reservation keeps the bound socket open, with SO_REUSEADDR and without listening: the
// kernel then gives the port to no other bind (a probe without SO_REUSEADDR, an outgoing
// connection), while rank 0's rendezvous store, which binds with SO_REUSEADDR and listens, may
// still take it.
//
//   PortReservation port = PortReservation::loopback();
//   env["MASTER_PORT"] = std::to_string(port.port());   // keep `port` alive while the ranks run

namespace tw::cli {

class PortReservation {
 public:
  // A free port, held. Throws std::runtime_error when no socket can be bound.
  static PortReservation loopback();
  PortReservation() = default;
  ~PortReservation();
  PortReservation(PortReservation &&other) noexcept;
  PortReservation &operator=(PortReservation &&other) noexcept;
  PortReservation(const PortReservation &) = delete;
  PortReservation &operator=(const PortReservation &) = delete;

  int port() const { return m_port; }
  void release();

 private:
  int m_fd = -1;
  int m_port = 0;
};

}  // namespace tw::cli
