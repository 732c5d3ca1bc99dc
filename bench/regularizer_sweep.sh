#!/usr/bin/env bash
# Run from the repo root after `cargo build` (uses target/debug/spotlight).
# The regularizer choice, measured: BN alone, 5 % flipped, 2,000 members, 6 epochs, Adam (and SGD).
B="compare=false&batch_norm=true&label_noise=0.05&train_size=2000&test_size=1000&epochs=6&batch_size=64&probe_size=0&shadow_models=0"
run() { # label, extra
  for seed in 1 2; do
    out=$(target/debug/spotlight run --quiet --backend flex --link "$B&seed=$seed&$2" --out /tmp/rs.json)
    echo "$1 seed=$seed :: $(echo "$out" | grep -E 'epoch [0-9]+:' | sed 's/.*flipped acc/flipped/') :: $(echo "$out" | grep 'median γ/σ' | sed 's/.*: //')"
  done
}
for opt in adam sgd; do
  lr=0.001; [ $opt = sgd ] && lr=0.05
  O="optimizer=$opt&learning_rate=$lr"
  run "$opt none" "$O&regularizer=false"
  run "$opt gamma λ=0.05" "$O&regularizer=true&reg_kind=gamma&reg_strength=0.05"
  for l in 0.05 0.5; do
    run "$opt sigma λ=$l" "$O&regularizer=true&reg_kind=sigma&reg_strength=$l"
    run "$opt hinge λ=$l" "$O&regularizer=true&reg_kind=hinge&reg_strength=$l"
  done
  for t in 1 0.5; do
    run "$opt project τ=$t" "$O&regularizer=true&reg_kind=project&reg_bound=$t"
  done
done
