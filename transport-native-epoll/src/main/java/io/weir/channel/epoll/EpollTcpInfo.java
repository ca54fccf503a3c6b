package io.weir.channel.epoll;

/**
 * A snapshot of a TCP connection's kernel state, read with {@code getsockopt(TCP_INFO)} by
 * {@link EpollSocketChannel#tcpInfo()} (see {@code man 7 tcp} and {@code struct tcp_info} in
 * {@code linux/tcp.h}). Immutable and thread-safe; it does not change when the connection does: read a new one.
 *
 * <p>Times are in the units the kernel reports them: microseconds for {@link #rtt()}, {@link #rttvar()},
 * {@link #rto()}, {@link #ato()} and {@link #rcvRtt()}; milliseconds for the {@code last*} values. Unsigned
 * 32-bit kernel fields are returned as non-negative {@code long}s.
 */
public final class EpollTcpInfo {
    /** {@link #state()} of a connection that can carry data both ways ({@code TCP_ESTABLISHED}). */
    public static final int STATE_ESTABLISHED = 1;
    /** {@link #state()} of a connection whose peer closed its side ({@code TCP_CLOSE_WAIT}). */
    public static final int STATE_CLOSE_WAIT = 8;
    /** {@link #state()} of a listening socket ({@code TCP_LISTEN}). */
    public static final int STATE_LISTEN = 10;
    private final int state;
    private final int caState;
    private final int retransmits;
    private final int probes;
    private final int backoff;
    private final int options;
    private final int sndWscale;
    private final int rcvWscale;
    private final long rto;
    private final long ato;
    private final long sndMss;
    private final long rcvMss;
    private final long unacked;
    private final long sacked;
    private final long lost;
    private final long retrans;
    private final long lastDataSent;
    private final long lastDataRecv;
    private final long lastAckRecv;
    private final long pmtu;
    private final long rcvSsthresh;
    private final long rtt;
    private final long rttvar;
    private final long sndSsthresh;
    private final long sndCwnd;
    private final long advmss;
    private final long reordering;
    private final long rcvRtt;
    private final long rcvSpace;
    private final long totalRetrans;

    /** From the values the native fills, in the order of the C enum {@code TCP_INFO_*}. */
    EpollTcpInfo(long[] v) {
        if (v.length != EpollSocketNative.TCP_INFO_COUNT) {
            throw new IllegalArgumentException("values: " + v.length + " (expected: "
                    + EpollSocketNative.TCP_INFO_COUNT + ')');
        }
        state = (int) v[0];
        caState = (int) v[1];
        retransmits = (int) v[2];
        probes = (int) v[3];
        backoff = (int) v[4];
        options = (int) v[5];
        sndWscale = (int) v[6];
        rcvWscale = (int) v[7];
        rto = v[8];
        ato = v[9];
        sndMss = v[10];
        rcvMss = v[11];
        unacked = v[12];
        sacked = v[13];
        lost = v[14];
        retrans = v[15];
        lastDataSent = v[16];
        lastDataRecv = v[17];
        lastAckRecv = v[18];
        pmtu = v[19];
        rcvSsthresh = v[20];
        rtt = v[21];
        rttvar = v[22];
        sndSsthresh = v[23];
        sndCwnd = v[24];
        advmss = v[25];
        reordering = v[26];
        rcvRtt = v[27];
        rcvSpace = v[28];
        totalRetrans = v[29];
    }

    /** Returns the connection's state as the kernel numbers it ({@link #STATE_ESTABLISHED} once connected; {@code tcpi_state}). */
    public int state() {
        return state;
    }

    /** Returns the congestion-avoidance state ({@code tcpi_ca_state}: 0 open, 1 disorder, 2 CWR, 3 recovery, 4 loss). */
    public int caState() {
        return caState;
    }

    /** Returns retransmissions of the current unacknowledged segment, reset when it is acknowledged ({@code tcpi_retransmits}). */
    public int retransmits() {
        return retransmits;
    }

    /** Returns unanswered zero-window or keep-alive probes ({@code tcpi_probes}). */
    public int probes() {
        return probes;
    }

    /** Returns exponential back-off of the retransmission timer ({@code tcpi_backoff}). */
    public int backoff() {
        return backoff;
    }

    /** Returns the options negotiated, as the kernel's {@code TCPI_OPT_*} bits ({@code tcpi_options}): 1 timestamps, 2 SACK, 4 window scaling, 8 ECN, 32 data sent with the SYN (fast open). */
    public int options() {
        return options;
    }

    /** Returns the send window scale ({@code tcpi_snd_wscale}). */
    public int sndWscale() {
        return sndWscale;
    }

    /** Returns the receive window scale ({@code tcpi_rcv_wscale}). */
    public int rcvWscale() {
        return rcvWscale;
    }

    /** Returns the retransmission timeout in microseconds ({@code tcpi_rto}). */
    public long rto() {
        return rto;
    }

    /** Returns the delayed-ACK timeout in microseconds ({@code tcpi_ato}). */
    public long ato() {
        return ato;
    }

    /** Returns the send maximum segment size in bytes ({@code tcpi_snd_mss}). */
    public long sndMss() {
        return sndMss;
    }

    /** Returns the receive maximum segment size in bytes, as estimated ({@code tcpi_rcv_mss}). */
    public long rcvMss() {
        return rcvMss;
    }

    /** Returns segments sent and not yet acknowledged ({@code tcpi_unacked}). */
    public long unacked() {
        return unacked;
    }

    /** Returns segments selectively acknowledged ({@code tcpi_sacked}). */
    public long sacked() {
        return sacked;
    }

    /** Returns segments considered lost ({@code tcpi_lost}). */
    public long lost() {
        return lost;
    }

    /** Returns segments being retransmitted now ({@code tcpi_retrans}). */
    public long retrans() {
        return retrans;
    }

    /** Returns milliseconds since data was last sent ({@code tcpi_last_data_sent}). */
    public long lastDataSent() {
        return lastDataSent;
    }

    /** Returns milliseconds since data was last received ({@code tcpi_last_data_recv}). */
    public long lastDataRecv() {
        return lastDataRecv;
    }

    /** Returns milliseconds since an ACK was last received ({@code tcpi_last_ack_recv}). */
    public long lastAckRecv() {
        return lastAckRecv;
    }

    /** Returns the path MTU in bytes ({@code tcpi_pmtu}). */
    public long pmtu() {
        return pmtu;
    }

    /** Returns the receive slow-start threshold in bytes ({@code tcpi_rcv_ssthresh}). */
    public long rcvSsthresh() {
        return rcvSsthresh;
    }

    /** Returns the smoothed round-trip time in microseconds ({@code tcpi_rtt}). */
    public long rtt() {
        return rtt;
    }

    /** Returns the round-trip time's mean deviation in microseconds ({@code tcpi_rttvar}). */
    public long rttvar() {
        return rttvar;
    }

    /** Returns the send slow-start threshold in segments ({@code tcpi_snd_ssthresh}). */
    public long sndSsthresh() {
        return sndSsthresh;
    }

    /** Returns the congestion window in segments ({@code tcpi_snd_cwnd}). */
    public long sndCwnd() {
        return sndCwnd;
    }

    /** Returns the maximum segment size advertised to the peer in bytes ({@code tcpi_advmss}). */
    public long advmss() {
        return advmss;
    }

    /** Returns the reordering the kernel tolerates, in segments ({@code tcpi_reordering}). */
    public long reordering() {
        return reordering;
    }

    /** Returns the receiver's round-trip time estimate in microseconds ({@code tcpi_rcv_rtt}; 0 until estimated). */
    public long rcvRtt() {
        return rcvRtt;
    }

    /** Returns the receive buffer space the kernel aims for, in bytes ({@code tcpi_rcv_space}). */
    public long rcvSpace() {
        return rcvSpace;
    }

    /** Returns segments retransmitted over the connection's whole life ({@code tcpi_total_retrans}). */
    public long totalRetrans() {
        return totalRetrans;
    }

    @Override
    public String toString() {
        return "EpollTcpInfo(state: " + state + ", rtt: " + rtt + " us, rttvar: " + rttvar + " us, rto: " + rto
                + " us, snd_cwnd: " + sndCwnd + ", snd_mss: " + sndMss + ", rcv_mss: " + rcvMss + ", pmtu: " + pmtu
                + ", unacked: " + unacked + ", lost: " + lost + ", retransmits: " + retransmits + ", total_retrans: "
                + totalRetrans + ')';
    }
}
