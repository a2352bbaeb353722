#!/usr/bin/env bats
# make schedule and make unschedule (issue 39) on the local cluster: Debian's
# slurm-client has no scrontab, so the schedule is a batch job held until
# AT that queues its successor first; the test starts it at once (scontrol
# update starttime=now) and checks the day's campaign, the trend and the
# export it ran, its successor held until the next AT, and that unschedule
# leaves nothing queued.
# shellcheck disable=SC2154 # bats sets output and stderr

load ../lib/helpers
load ../lib/cluster

setup_file() {
	campaign_results test-schedule
}

setup() {
	# shellcheck source=/dev/null
	. "$CLUSTER_DIR/env.sh"
}

schedule() { bash "$ROOT/campaigns/schedule.sh" "$@"; }
queued() { squeue -h -n "$1" -o '%i %T %r %S'; }

# run_now: the held job runs now, and the day's jobs after it (until its
# after job has ended); its successor, held, in $held.
run_now() {
	local id
	id=$(squeue -h -n aller-schedule-nightly -t PD -o %i)
	scontrol update jobid="$id" starttime=now
	SAW=squeue wait_for "job $id to end and hold its successor" 60 successor_held "$id"
	SAW=squeue wait_for "the day's after job to end" 120 after_ended
}
# successor_held ID: ID has ended and another nightly job is held (in $held)
successor_held() {
	held=$(squeue -h -n aller-schedule-nightly -t PD -o %i | grep -vx "$1" || true)
	[ -n "$held" ] && [ -z "$(squeue -h -j "$1" 2>/dev/null)" ]
}
after_ended() { [ -z "$(squeue -h -n aller-schedule-nightly-after -o %i)" ]; }

@test "make schedule: held until AT, run at once: the day's campaign, trend and export; its successor held; unschedule" {
	tf=$RES/textfile   # where the nodes see it (their /tmp is their own)
	mkdir -p "$tf"
	run -0 schedule CAMPAIGN_PREFIX=nightly AT=03:17 "RESULTS=$RES" "TEXTFILE_DIR=$tf" NODES=1 LONGS=1024 ITERS=2 MODES=contiguous
	next=$(date -d "today 03:17" +%s)
	[ "$next" -gt "$(date +%s)" ] || next=$(date -d "tomorrow 03:17" +%s)
	[[ $output == "schedule: nightly: job "*" held until $(date -d "@$next" +%FT%T), then every day at 03:17 ($RES/schedule-nightly)" ]]
	# again: replaces it
	run -0 schedule CAMPAIGN_PREFIX=nightly AT=03:17 "RESULTS=$RES" "TEXTFILE_DIR=$tf" NODES=1 LONGS=1024 ITERS=2 MODES=contiguous
	[ "$(queued aller-schedule-nightly | wc -l)" = 1 ]
	[[ $(queued aller-schedule-nightly) == *" PENDING BeginTime $(date -d "@$next" +%FT%T)" ]]
	grep -qx 'NODES=1' "$RES/schedule-nightly/settings"
	run_now
	day=nightly-$(date +%F)
	cat "$RES"/schedule-nightly/logs/* >&2
	[ -s "$RES/$day/merged/points.csv" ]
	grep -q "^nightly: $day: trend over nightly-\*: exit 2 (0 no change, 1 a change, 2 not two campaigns yet)" "$RES"/schedule-nightly/logs/aller-schedule-nightly-after-*.out
	[ -s "$tf/aller-$day.prom" ]
	[[ $(queued aller-schedule-nightly) == "$held PENDING BeginTime $(date -d "@$next" +%FT%T)" ]]
	# a second night (yesterday's campaign beside it): the trend over both
	cp -r "$RES/$day" "$RES/nightly-$(date -d yesterday +%F)"
	rm -f "$RES"/schedule-nightly/logs/aller-schedule-nightly-after-*.out
	run_now
	grep -q "^nightly: $day: trend over nightly-\*: exit [01] " "$RES"/schedule-nightly/logs/aller-schedule-nightly-after-*.out
	[ -s "$RES/trend-nightly/trend.csv" ]
	run -0 bash "$ROOT/campaigns/schedule.sh" --remove CAMPAIGN_PREFIX=nightly
	[ "$output" = "schedule: nightly: 1 queued job(s) aller-schedule-nightly cancelled" ]
	[ -z "$(queued aller-schedule-nightly)" ]
}

@test "bad input: one line, exit 2, nothing queued" {
	run --separate-stderr -2 schedule CAMPAIGN_PREFIX=bad AT=25:00 "RESULTS=$RES"
	[ "$stderr" = "schedule: error: invalid AT '25:00': expected the time of day as HH:MM, e.g. 02:00" ]
	run --separate-stderr -2 schedule AT=02:00 "RESULTS=$RES"
	[ "$stderr" = "schedule: error: give CAMPAIGN_PREFIX=name: each day's campaign is PREFIX-YYYY-MM-DD" ]
	run --separate-stderr -2 schedule CAMPAIGN_PREFIX=bad AT=02:00 "RESULTS=$RES" NODES=0
	[ "$stderr" = "schedule: error: the campaign would be refused: campaign: error: invalid node count '0' in NODES: allowed are positive integers" ]
	run --separate-stderr -2 schedule CAMPAIGN_PREFIX=bad AT=02:00 CAMPAIGN=x
	[[ $stderr == "schedule: error: CAMPAIGN=x: the schedule names each day's campaign itself"* ]]
	[ -z "$(queued aller-schedule-bad)" ]
	[ ! -e "$RES/schedule-bad" ]
}
