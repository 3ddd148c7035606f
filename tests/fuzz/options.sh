# Sourced by run.sh and smoke.sh: fuzz_options NAME prints libFuzzer options
# for target NAME: the longest input worth trying (its largest operands; a
# longer one only repeats them) and a per-input time limit generous enough
# for a loaded machine (a slow input is not a finding); cheap inputs
# scheduled more often than slow ones (up to 30 times), as most paths are
# reached by small operands.
fuzz_options() {
    local max
    case $1 in
        fuzz_modexp) max=2200 ;;     # 8192-bit modulus, exponent, base
        fuzz_modexp_x2) max=1400 ;;  # two 4096-bit halves
        fuzz_modexp2) max=1400 ;;    # 4096-bit modulus, two bases
        fuzz_mldsa) max=7400 ;;      # ML-DSA-87 public key and signature
        fuzz_mldsa_ntt) max=4096 ;;  # up to 16 polynomials (the generator fills the rest)
        fuzz_mldsa_pack | fuzz_mldsa_round) max=1400 ;; # a polynomial, coefficient by coefficient
        fuzz_mldsa_sample) max=1000 ;; # 280 3-byte groups
        fuzz_mldsa_decode) max=400 ;; # edits, or a hint encoding
        fuzz_mlkem) max=64 ;;        # a few edits and a message
        fuzz_ed25519) max=1300 ;;    # a key, edits and a 1200-byte message
        fuzz_x25519) max=65 ;;       # mode, scalar, peer
        *) max=4096 ;;
    esac
    echo "-max_len=$max -timeout=120 -rss_limit_mb=2048 -print_final_stats=1 -entropic_scale_per_exec_time=1"
}
