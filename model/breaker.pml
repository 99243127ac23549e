/*
 * Breakwater's breaker protocol, for SPIN: every interleaving of the trigger, the orchestration and its
 * activities, the watchdog, the host's restarts, the operator, the hub's retention and the retention guard.
 * model/README.md explains each abstraction and how the properties map to the guarantees (G1, G3, G5, G7).
 *
 * Each step names the product code that does it: `@code <name>` is a function (or method) in src/, checked
 * by test/model/modelLists.test.ts; `@planned <name>` is a step of a design still being built, modelled from
 * its issue text, and checked to be absent until it lands (the retention guard and maintenance mode have).
 *
 * Compile-time switches (0 = today's code):
 *   OLD_SKIPPED_DISABLE  last round's orchestrator: a skipped disable ends the episode and leaves the
 *                        trigger as it is (before "a superseded disable makes sure the trigger is enabled")
 *   KILL_ANY_ACTIVITY    a restart kills the activity in flight whatever it is (the slow restart: old
 *                        instances keep running, then die mid-work), the email activity included
 *   STRAY_FORMS          someone sets another form of the switch (AzureWebJobs_<fn>_Disabled, or "1")
 *   APP_READS_ALL_FORMS  the app reads and clears every form of the switch, as the host reads them
 *                        (1 = today's code, src/control/switchReading.ts; 0: the app saw only its own form)
 *   OLD_NO_TRIP_WATCHDOG last round's watchdog: a store that knows no trip is left alone, strays included
 *   NOBODY_APPROVES      the operator never approves nor resets (the unattended trip)
 *   STORAGE_DOWN_WHOLE_MARGIN  the guard's storage is down for the whole margin (the documented limit)
 *   F_STRAY_APPROVAL     an Approval carrying another trip's id reaches a waiting instance (a replayed
 *                        raise-event call, an old link's page): the wait must ignore it
 *
 * Seeded bugs (BUG_* = 1), each a plausible slip in the code; scripts/check-model.sh checks each is caught
 * by the property named beside it (model/README.md, "Seeded bugs"):
 *   BUG_MOVE_BEFORE_SAVE   the guard moves the checkpoint before it saves             (G1 in every state)
 *   BUG_DRAIN_AFTER_ENABLE the drain runs after the re-enable                         (drain-before-enable)
 *   BUG_DRAIN_GIVES_UP     a failed drain ends the episode, as 0.3 did (the strand)    (live)
 *   BUG_WATCHDOG_IN_MAINT  the watchdog repairs the trigger during maintenance        (maintenance)
 *   BUG_ANY_APPROVAL       the wait takes an Approval of any trip                      (G5)
 *   BUG_GUARD_NO_SAVE      the guard moves the checkpoint and saves nothing           (G1 in every state)
 *   BUG_NOTICE_NO_LEDGER   the notice is sent without the ledger, as before it        (G3, KILL_ANY_ACTIVITY)
 */

#ifndef OLD_SKIPPED_DISABLE
#define OLD_SKIPPED_DISABLE 0
#endif
#ifndef KILL_ANY_ACTIVITY
#define KILL_ANY_ACTIVITY 0
#endif
#ifndef STRAY_FORMS
#define STRAY_FORMS 0
#endif
#ifndef APP_READS_ALL_FORMS
#define APP_READS_ALL_FORMS 1
#endif
#ifndef OLD_NO_TRIP_WATCHDOG
#define OLD_NO_TRIP_WATCHDOG 0
#endif
#ifndef NOBODY_APPROVES
#define NOBODY_APPROVES 0
#endif
#ifndef STORAGE_DOWN_WHOLE_MARGIN
#define STORAGE_DOWN_WHOLE_MARGIN 0
#endif

#ifndef RETENTION
#define RETENTION 1   /* the hub's clock runs: retention, margin, the guard */
#endif
#ifndef F_OUTAGE
#define F_OUTAGE 0
#endif
#ifndef F_STORE
#define F_STORE 0
#endif
#ifndef F_MOVE
#define F_MOVE 0
#endif
#ifndef F_EDIT
#define F_EDIT 0
#endif
#ifndef F_FORCE
#define F_FORCE 0
#endif
#ifndef F_MANUAL
#define F_MANUAL 0
#endif
#ifndef F_MAINT
#define F_MAINT 0
#endif
#ifndef F_STRAY_APPROVAL
#define F_STRAY_APPROVAL 0
#endif
#ifndef BUG_MOVE_BEFORE_SAVE
#define BUG_MOVE_BEFORE_SAVE 0
#endif
#ifndef BUG_DRAIN_AFTER_ENABLE
#define BUG_DRAIN_AFTER_ENABLE 0
#endif
#ifndef BUG_DRAIN_GIVES_UP
#define BUG_DRAIN_GIVES_UP 0
#endif
#ifndef BUG_WATCHDOG_IN_MAINT
#define BUG_WATCHDOG_IN_MAINT 0
#endif
#ifndef BUG_ANY_APPROVAL
#define BUG_ANY_APPROVAL 0
#endif
#ifndef BUG_GUARD_NO_SAVE
#define BUG_GUARD_NO_SAVE 0
#endif
#ifndef BUG_NOTICE_NO_LEDGER
#define BUG_NOTICE_NO_LEDGER 0
#endif
/* Guard runs the margin holds before the hub deletes, not counting those a host restart killed (a restart
   costs seconds of a day's margin of 1,440 runs); a run that fails (storage down) counts. The events need
   NEV runs at one event a run (the per-run bound, scaled down): one run to spare. */
#ifndef GUARD_RUNS
#define GUARD_RUNS 3
#endif

#define NEV 2          /* events in the one partition, all enqueued at time 0, the last one poison */
#ifndef MAXTRIP
#define MAXTRIP 2
#endif
#define THRESHOLD 1    /* CLOSED trips when the window holds more than this; HALF_OPEN at the first */

/* The lists the product declares too (the test compares them). */
mtype:bstate = { CLOSED, OPEN, HALF_OPEN };
mtype:phase = { opening, disabling, notifying, awaiting_approval, resuming, probation, closed, superseded };
mtype:outcome = { switched, soft, failed };
mtype:activity = { openTrip, disableTrigger, enableTrigger, sendEmail, sendWebhook, transition, resetWindow, readState, drainSaved };

/* An event's fate (G1): still in the hub, or one of the four ends; LOST only if the hub expired it waiting. */
#define WAITING 0
#define PROCESSED 1
#define DEAD_LETTERED 2
#define SAVED 3
#define LOST 4

/* The durable instance of a trip. */
#define I_NONE 0
#define I_RUNNING 1
#define I_DONE 2
#define I_STOPPED 3

/* Hub time, coarse: events young, oldest past retention minus the margin, expired. */
#define YOUNG 0
#define MARGIN 1
#define EXPIRED 2

/* ---- the breaker store (Redis or Table; restarts empty at most once) ---- */
mtype:bstate st = CLOSED;
byte st_trip = 0;
byte win = 0;            /* failures in the window, saturating at THRESHOLD + 1 */
byte trips = 0;          /* trip ids handed out (newTripId: unique even across a store restart) */

/* ---- the switch: the app settings the host reads at start ---- */
bool sw_dot = false;     /* AzureWebJobs.<fn>.Disabled = "true" (what the app writes) */
bool sw_stray = false;   /* any other form set: AzureWebJobs_<fn>_Disabled, or the value "1" */
bool maint = false;      /* maintenance mode: consumption stopped on purpose */

/* ---- the host ---- */
bool listening = true;   /* the listener, as the setting read at the last host start says */
bool restart_pending = false;
byte owner = 0;          /* instance that owns the partition (it moves at most once) */
bool busy[2];            /* an invocation or its retry loop lives on that instance */
bool inv_killed[2];
bool trig_starting[MAXTRIP + 1]; /* the tripping invocation is starting the orchestration (the grace) */

/* ---- the hub ---- */
byte ev[NEV];
byte cp = 0;             /* checkpoint: the next event the listener reads */
byte clock = YOUNG;
bool up = true;          /* the downstream */

/* ---- the orchestrations, one per trip ---- */
byte inst[MAXTRIP + 1];
byte ogen[MAXTRIP + 1];       /* bumped when an instance is terminated: its process stops */
byte live_of[MAXTRIP + 1];    /* generation + 1 of the execution running trip t's episode (G3), 0: none */
byte pend[MAXTRIP + 1];       /* an ARM write an activity has decided on but not made: 1 disable, 2 enable */
mtype:phase ph[MAXTRIP + 1];
byte apv[MAXTRIP + 1];         /* the trip id the Approval raised on trip t's instance carries (0: none) */
bool op_ok[MAXTRIP + 1];       /* the operator approved trip t's own link (the page, @code raiseApproval) */
bool window_reset[MAXTRIP + 1];
byte first_notices[MAXTRIP + 1];
bool n_accepted[MAXTRIP + 1];  /* the provider accepted trip t's notice (under the key's message id) */
bool n_marked[MAXTRIP + 1];    /* the notice ledger marks it sent */
bool act_run[MAXTRIP + 1];
bool act_killed[MAXTRIP + 1];

/* ---- the retention guard ---- */
byte saves = 0;          /* events the guard saved, counted (ghost, for drain-before-enable) */
byte drained_at[MAXTRIP + 1]; /* saves + 1 when trip t's drain last succeeded (0: never) */
byte g_runs = 0;         /* guard runs in the margin (saturating at GUARD_RUNS): the hub deletes after */
bool g_run = false;
bool g_killed = false;

/* ---- fault budgets of the environment and the operator: each happens at most once, and only in the
   runs that enable it (F_* = 1; the check runs several such groups, see model/README.md) ---- */
bool b_outage = !F_OUTAGE;
bool b_store = !F_STORE;
bool b_move = !F_MOVE;
bool b_stray = !STRAY_FORMS;
bool b_edit = !F_EDIT;
bool b_force = !F_FORCE;
bool b_manual = !F_MANUAL;
bool b_maint = !F_MAINT;
bool b_sapv = !F_STRAY_APPROVAL;

#define host_disabled (sw_dot || sw_stray)
#if APP_READS_ALL_FORMS
#define app_reads_disabled (sw_dot || sw_stray)
#define clear_switch { sw_dot = false; sw_stray = false }
#else
#define app_reads_disabled (sw_dot)
#define clear_switch { sw_dot = false }
#endif
#define all_done ((ev[0] == PROCESSED || ev[0] == DEAD_LETTERED) && (ev[1] == PROCESSED || ev[1] == DEAD_LETTERED))
#define waiting_exists (ev[0] == WAITING || ev[1] == WAITING)
#define saved_exists (ev[0] == SAVED || ev[1] == SAVED)

/* G1: the checkpoint never passes an event still waiting in the hub; G7: no event expires waiting. */
#define g1_holds (!(ev[0] == WAITING && cp > 0) && !(ev[1] == WAITING && cp > 1))
#define g7_holds (ev[0] != LOST && ev[1] != LOST)

/* Both checked in every reachable state: this process can take its one step in any state, and does so
   only where one fails (SPIN's monitor idiom; no state of its own until then). */
proctype Invariants() {
end_inv:
  atomic { !(g1_holds && g7_holds) -> assert(g1_holds); assert(g7_holds) }
}

/* Maintenance: no actor decides to enable the trigger while maintenance mode is in force. Every enable
   goes through here, at the point where its code has read the maintenance record. */
#define enable_switch { assert(!maint) /* maintenance */; clear_switch; settings_written() }

/* A host start after a settings change (the host and the sim's restartHost): invocations and retry loops
   die without a checkpoint, activities in flight die and are re-run by the durable extension, and the
   listener reads the switch again. */
inline host_restart() {
  restart_pending = false;
  inv_killed[0] = busy[0]; inv_killed[1] = busy[1];
  act_killed[1] = act_run[1];
#if MAXTRIP > 1
  act_killed[2] = act_run[2];
#endif
 
  g_killed = g_run;
  listening = !host_disabled
}

/* Every app-settings write restarts the host. Today's model (as the simulator): at once, killing what is
   in flight, which is the activity that wrote. KILL_ANY_ACTIVITY: later, killing whatever runs then. */
inline settings_written() {
#if KILL_ANY_ACTIVITY
  restart_pending = true
#else
  host_restart()
#endif
}

/* startNew (the durable client): replaces an existing instance silently; a running one's process stops
   (its generation bumped) and the new execution starts from the beginning. */
inline start_new(t) {
  if :: inst[t] == I_RUNNING -> ogen[t]++ :: else -> skip fi;
  inst[t] = I_RUNNING; run Orch(t, ogen[t])
}

/* Trip t's orchestration start by the trigger (@code startBreakerOrchestration): the status read and
   startNew, one step (the trigger is the trip's first starter; the watchdog's grace keeps it alone). */
inline start_orchestration(t, restart_stopped) {
  if
  :: inst[t] == I_NONE || (restart_stopped && inst[t] == I_STOPPED) -> start_new(t)
  :: else -> skip
  fi
}

/* An activity body: marks it in flight; a restart before it returns kills it and durable runs it again. */
#define act_begin(t) act_run[t] = true; act_killed[t] = false
#define act_end(t, again) atomic { act_run[t] = false; if :: act_killed[t] -> goto again :: else -> skip fi }

/* The saved events written to the sink (the first processed, the poison one dead-lettered). */
#define drain_all { if :: ev[0] == SAVED -> ev[0] = PROCESSED :: else -> skip fi; if :: ev[1] == SAVED -> ev[1] = DEAD_LETTERED :: else -> skip fi }

/* ================================ the orchestration ================================ */

/* @code breakerOrchestrator: one per trip; durable, so it survives restarts; each activity may be
   killed and run again. Termination (forced reset) bumps ogen[t] and ends the process. */
proctype Orch(byte t; byte g) {
  mtype:bstate s;
  byte ct;
  bool skipped;
  bool moved;
  bool drained;
  bool lost;
  atomic { assert(live_of[t] != g + 1) /* G3: one orchestration per trip */; live_of[t] = g + 1 }
  {
    ph[t] = opening;
    /* @code openTrip */
a_open:
    atomic { act_begin(t); s = st; ct = st_trip };
    act_end(t, a_open);
    if
    :: ct != t || s == CLOSED -> ph[t] = superseded; goto finished
    :: ct == t && s == HALF_OPEN -> ph[t] = resuming; s = CLOSED; ct = 0; goto draining
    :: ct == t && s == OPEN -> ph[t] = disabling; s = CLOSED; ct = 0
    fi;

    /* @code disableTrigger: re-reads the store before the ARM write; @code setDisabled writes only
       when the value differs (a re-run after the restart its write caused writes nothing). */
a_disable:
    atomic { act_begin(t); skipped = !(st == OPEN && st_trip == t); if :: !skipped -> pend[t] = 1 :: else -> skip fi };
    if
    :: !skipped -> atomic { pend[t] = 0; if :: !sw_dot -> sw_dot = true; settings_written() :: else -> skip fi }
    :: else -> skip
    fi;
    act_end(t, a_disable);
    if
    :: skipped ->
#if OLD_SKIPPED_DISABLE
       ph[t] = superseded; goto finished
#else
       /* A superseded disable makes sure the trigger is enabled (@code enableTrigger, record false):
          an earlier attempt may have written it before the restart killed that attempt. */
a_undo:
       atomic { act_begin(t); skipped = (st == OPEN) };
       if
       :: !skipped && !maint -> atomic { if :: app_reads_disabled -> enable_switch :: else -> skip fi }
       :: else -> skip
       fi;
       act_end(t, a_undo);
       ph[t] = superseded; goto finished
#endif
    :: else -> skip
    fi;

    ph[t] = notifying;
    /* @code sendNotice: the trip notice on each channel (the first notice, G3) */
a_notice:
#if KILL_ANY_ACTIVITY
    act_begin(t);
#if BUG_NOTICE_NO_LEDGER
    atomic { first_notices[t]++; assert(first_notices[t] <= 1) /* G3: one first notice */ };
#else
    /* Through the notice ledger, keyed by trip, kind and channel (@code noticeKey): a notice it marks
       sent (@code markSent) is not sent again; one it does not is sent with the first attempt's message
       under the key's message id (@code noticeMessageId), which the provider takes as a repeat of what it
       accepted (ACS's repeatability id, a webhook receiver's webhook-id), whichever execution of the
       trip's orchestration sends it. */
    if
    :: n_marked[t] -> skip
    :: else ->
       atomic {
         if :: !n_accepted[t] -> n_accepted[t] = true; first_notices[t]++ :: else -> skip fi;
         assert(first_notices[t] <= 1) /* G3: one first notice */
       };
       /* a kill after the provider accepted stops the activity before its mark */
       atomic { if :: !act_killed[t] -> n_marked[t] = true :: else -> skip fi }
    fi;
#endif
    act_end(t, a_notice);
#else
    atomic { first_notices[t]++; assert(first_notices[t] <= 1) };
#endif

    /* @code awaitApproval: only an Approval carrying this trip id ends the wait; another is ignored */
    ph[t] = awaiting_approval;
end_await:
    if
#if BUG_ANY_APPROVAL
    :: atomic { apv[t] != 0 -> ph[t] = resuming }
#else
    :: atomic { apv[t] == t -> ph[t] = resuming }
    :: atomic { apv[t] != 0 && apv[t] != t -> apv[t] = 0 }; goto end_await
#endif
    fi;

    /* @code transition OPEN -> HALF_OPEN (compare-and-set; idempotent on a re-run) */
a_half:
    atomic {
      act_begin(t);
      moved = (st == OPEN && st_trip == t) || (st == HALF_OPEN && st_trip == t);
      if :: moved -> st = HALF_OPEN :: else -> skip fi
    };
    act_end(t, a_half);
    if
    :: !moved ->
       /* @code readState; the store forgot every trip: @code resumeAfterLostStore */
       if
       :: st == CLOSED && st_trip == 0 -> lost = true; goto draining
       :: else -> ph[t] = superseded; goto finished
       fi
    :: else -> skip
    fi;

    /* @code resetWindow: G5, the window is emptied before the listener starts again */
a_reset:
    atomic { act_begin(t); win = 0; window_reset[t] = true };
    act_end(t, a_reset);

draining:
#if !BUG_DRAIN_AFTER_ENABLE
    /* @code drainUntilWritten: the drain activity (@code drainSaved) until it succeeds, a durable timer
       between attempts, the store re-read before each retry (@code readState) */
a_drain:
    atomic { act_begin(t); drained = up || !saved_exists; if :: drained -> drain_all; drained_at[t] = saves + 1 :: else -> skip fi };
    act_end(t, a_drain);
    if
    :: !drained ->
#if BUG_DRAIN_GIVES_UP
       ph[t] = superseded; goto finished
#else
       atomic {
         if
         :: st == CLOSED && st_trip == 0 -> lost = true; goto a_drain
         :: st == HALF_OPEN && st_trip == t -> goto a_drain
         :: else -> ph[t] = superseded; goto finished
         fi
       }
#endif
    :: else -> skip
    fi;
#endif
enabling:
    /* @code enableTrigger: never while the store is OPEN; maintenance keeps the trigger off (@code HELD_BY_MAINTENANCE) */
a_enable:
    atomic { act_begin(t); skipped = (st == OPEN); if :: !skipped && !maint -> assert(!maint) /* maintenance */; pend[t] = 2 :: else -> skip fi };
    if
    :: !skipped && !maint ->
       atomic {
         pend[t] = 0;
         /* G5: only after the operator approved this trip's own link, and with the window emptied first
            (the lost-store path has no window left to empty) */
         assert(op_ok[t] && (window_reset[t] || lost));
         /* drain-before-enable: what was saved when the drain ran reached the sink before the listener
            starts again (an event saved after the drain, by a guard run then in flight, is drained by the
            next batch's saved-first) */
         assert(!saved_exists || (drained_at[t] != 0 && saves + 1 > drained_at[t]));
         if :: app_reads_disabled -> clear_switch; settings_written() :: else -> skip fi
       }
    :: else -> skip
    fi;
    act_end(t, a_enable);
    if :: skipped -> ph[t] = superseded; goto finished :: else -> skip fi;
#if BUG_DRAIN_AFTER_ENABLE
a_drain:
    atomic { act_begin(t); drained = up || !saved_exists; if :: drained -> drain_all; drained_at[t] = saves + 1 :: else -> skip fi };
    act_end(t, a_drain);
    if :: !drained -> goto a_drain :: else -> skip fi;
#endif
    /* @code resumeAfterLostStore: the store forgot every trip, so no probation */
    if :: lost -> ph[t] = closed; goto finished :: else -> skip fi;
    ph[t] = probation;

    /* the probation timer, then @code readState and @code transition HALF_OPEN -> CLOSED */
a_close:
    atomic {
      act_begin(t);
      if
      :: st == HALF_OPEN && st_trip == t -> st = CLOSED; ph[t] = closed
      :: else -> ph[t] = superseded
      fi
    };
    act_end(t, a_close);
finished:
    skip
  } unless { ogen[t] != g };
  /* Terminating an instance stops its orchestrator, not an activity already running: a write it had
     decided on still lands (the late disable after a forced reset that the watchdog repairs). */
  atomic {
    if
    :: pend[t] == 1 -> pend[t] = 0; if :: !sw_dot -> sw_dot = true; settings_written() :: else -> skip fi
    :: pend[t] == 2 -> pend[t] = 0; if :: app_reads_disabled -> clear_switch; settings_written() :: else -> skip fi
    :: else -> skip
    fi;
    if :: ogen[t] == g -> inst[t] = I_DONE; live_of[t] = 0 :: else -> skip fi
  }
}

/* ================================ the trigger ================================ */

/* @code makeBatchProcessor on instance `me`: one invocation at a time per owner; a batch held by the retry
   policy (maxRetryCount -1) is re-run from memory until it completes or a restart kills its loop. */
proctype Owner(byte me) {
  byte lo;
  byte hi;
  byte i;
  bool fail;
  byte tripped;
end_idle:
  do
  :: atomic {
       /* a batch of waiting events, or (saved events left, cp at the end) a later event's batch: traffic
          goes on, and each batch drains its partition's saved events first */
       listening && owner == me && !busy[me] && ((cp < NEV && clock != EXPIRED) || saved_exists) ->
       busy[me] = true; inv_killed[me] = false; lo = cp;
       if :: hi = NEV :: lo + 1 < NEV -> hi = lo + 1 fi   /* batch size */
     };
again:
     /* @code check: the cached gate; OPEN throws CircuitOpenError before touching any event (G4) */
     atomic {
       if
       :: inv_killed[me] -> busy[me] = false; goto next
       :: !inv_killed[me] && st == OPEN -> goto held
       :: else -> skip
       fi
     };
     /* @code makeTryBatchEvents: each event written to the idempotent sink; the last event is poison */
     atomic {
       if :: inv_killed[me] -> busy[me] = false; goto next :: else -> skip fi;
       fail = false;
       /* @code makeSavedFirst: the partition's saved events go first; failing, the batch is held */
       if :: saved_exists && up -> drain_all :: saved_exists && !up -> fail = true :: else -> skip fi;
       i = lo;
       if :: fail -> i = hi :: else -> skip fi;
       do
       :: i < hi && i == NEV - 1 -> i++               /* poison: dead-lettered when the batch completes */
       :: i < hi && i < NEV - 1 && up -> if :: ev[i] == WAITING || ev[i] == SAVED -> ev[i] = PROCESSED :: else -> skip fi; i++
       :: i < hi && i < NEV - 1 && !up -> fail = true; i++
       :: i >= hi -> i = 0; break
       od
     };
     tripped = 0;
     if
     :: fail ->
        /* @code recordFailures: one atomic round trip; CLOSED/HALF_OPEN -> OPEN for exactly one caller */
        atomic {
          if :: inv_killed[me] -> busy[me] = false; goto next :: else -> skip fi;
          if :: win <= THRESHOLD -> win++ :: else -> skip fi;
          if
          :: trips < MAXTRIP && ((st == CLOSED && win > THRESHOLD) || st == HALF_OPEN) ->
             trips++; st = OPEN; st_trip = trips; tripped = trips; trig_starting[tripped] = true
          :: else -> skip
          fi;
        };
        if
        :: tripped != 0 ->
           /* @code notifyTripped -> @code startBreakerOrchestration (the trigger's start) */
           atomic { if :: !inv_killed[me] -> start_orchestration(tripped, false) :: else -> skip fi; trig_starting[tripped] = false }
        :: else -> skip
        fi;
        goto held /* @code decideBatch: outage-like failures hold the batch, open or not */
     :: else -> skip
     fi;
     /* the batch completes: the poison event is dead-lettered, then the host checkpoints (from the old
        owner after a move too: a late checkpoint, possibly behind the new owner's) */
     atomic {
       if :: inv_killed[me] -> busy[me] = false; goto next :: else -> skip fi;
       if :: lo < NEV && hi == NEV && ev[NEV - 1] != PROCESSED -> ev[NEV - 1] = DEAD_LETTERED :: else -> skip fi;
       if :: clock != EXPIRED -> cp = hi :: else -> skip fi;
       busy[me] = false
     };
     goto next;
held:
     /* the retry policy re-runs the batch after a delay; the checkpoint holds */
     atomic { if :: inv_killed[me] -> busy[me] = false; goto next :: else -> goto again fi };
next:
     atomic { lo = 0; hi = 0; i = 0; fail = false; tripped = 0 }
  od
}

/* A restart that takes its time (KILL_ANY_ACTIVITY): it comes some time after the write. */
proctype Restarter() {
end_r:
  do
  :: atomic { restart_pending -> host_restart() }
  od
}

/* ================================ the watchdog ================================ */

/* @code runWatchdog: each tick reads the store; OPEN/HALF_OPEN without a live orchestration gets one
   (after the grace: never racing the trigger's own start); CLOSED after a trip with the trigger
   disabled and no live orchestration gets it enabled (@code repairTrigger), unless in maintenance.
   A store that knows no trip gets only the stray forms repaired: the breaker's own form then may be a
   forgotten trip's disable, which that trip's approval lifts (@code breakerOwnDisable, G5). */
#if BUG_WATCHDOG_IN_MAINT
#define w_maint false
#else
#define w_maint maint
#endif
proctype Watchdog() {
  mtype:bstate s;
  byte t;
  byte seen;
end_w:
  do
  :: atomic {
       s = st; t = st_trip;
       /* @code holdForMaintenance: in maintenance the trigger is held off (an enable that raced the
          entry is undone on the next tick) */
       if :: maint && !sw_dot -> sw_dot = true; settings_written() :: else -> skip fi;
       if
#if OLD_NO_TRIP_WATCHDOG
       :: t == 0 -> skip
#else
       :: t == 0 ->
          if
          :: s == CLOSED && !w_maint && app_reads_disabled && !sw_dot -> enable_switch
          :: else -> skip
          fi
#endif
       /* @code startBreakerOrchestration: the status read here, startNew in the next step */
       :: t != 0 && s != CLOSED -> !trig_starting[t]; seen = inst[t]; goto starting
       :: t != 0 && s == CLOSED ->
          if
          :: inst[t] != I_RUNNING && !w_maint && app_reads_disabled -> enable_switch
          :: else -> skip
          fi
       fi;
       s = CLOSED; t = 0
     };
     goto next_tick;
starting:
     atomic {
       if :: seen == I_NONE || seen == I_STOPPED -> start_new(t) :: else -> skip fi;
       s = CLOSED; t = 0; seen = 0
     };
next_tick:
     skip
  od
}

/* ================================ the retention guard ================================ */

/* @code runRetentionGuard, one run a watchdog tick while the oldest waiting event is within the margin:
   under the partition's lease it reads the checkpoint, saves the events behind it (at most one a run here:
   the per-run bound, scaled down) into the app's own storage, then moves the checkpoint past what it saved
   only if nobody moved it meanwhile (@code moveCheckpoint, ETag-guarded). A host restart stops a run
   between any two steps; what it saved stays saved, and the next run goes on. It never drains: the
   orchestration's drain and each batch's saved-first do (@code drainSaved). */
proctype Guard() {
  byte lo;
end_g:
  do
  :: atomic { clock == MARGIN && cp < NEV && g_runs < GUARD_RUNS -> g_run = true; g_killed = false; lo = cp };
#if BUG_MOVE_BEFORE_SAVE
     atomic { if :: !g_killed && cp == lo -> cp = lo + 1 :: else -> skip fi };
#endif
     /* the save of the run's events; storage down for the whole margin fails every run */
     atomic {
#if STORAGE_DOWN_WHOLE_MARGIN
       g_killed = true;
#endif
#if !BUG_GUARD_NO_SAVE
       if :: !g_killed && ev[lo] == WAITING -> ev[lo] = SAVED; saves++ :: else -> skip fi
#else
       skip
#endif
     };
#if !BUG_MOVE_BEFORE_SAVE
     /* the move: only if the checkpoint is still where this run read it */
     atomic { if :: !g_killed && cp == lo -> cp = lo + 1 :: else -> skip fi; if :: !g_killed || STORAGE_DOWN_WHOLE_MARGIN -> g_runs++ :: else -> skip fi; g_run = false; g_killed = false; lo = 0 }
#else
     atomic { if :: !g_killed || STORAGE_DOWN_WHOLE_MARGIN -> g_runs++ :: else -> skip fi; g_run = false; g_killed = false; lo = 0 }
#endif
  od
}

/* ================================ the world ================================ */

/* The downstream, the store, the partition's owner, the hub's clock and stray settings. */
proctype Env() {
end_e:
  do
  :: atomic { !b_outage -> b_outage = true; up = false }
  :: atomic { !up -> up = true }
  :: atomic { !b_store -> b_store = true; st = CLOSED; st_trip = 0; win = 0 } /* Redis restarts empty */
  :: atomic { !b_move -> b_move = true; owner = 1 - owner }                  /* a partition moves */
#if RETENTION
  :: atomic { clock == YOUNG -> clock = MARGIN }
  :: atomic {
       /* the hub deletes what passed retention once the margin is over: GUARD_RUNS runs of the guard,
          killed or not, or earlier when nothing waits behind the checkpoint */
       clock == MARGIN && (g_runs >= GUARD_RUNS || cp >= NEV) ->
       clock = EXPIRED;
       if :: ev[0] == WAITING -> ev[0] = LOST :: else -> skip fi;
       if :: ev[1] == WAITING -> ev[1] = LOST :: else -> skip fi
     }
#endif
#if STRAY_FORMS
  :: atomic { !b_stray -> b_stray = true; sw_stray = true; settings_written() }
#endif
  od
}

/* The operator: approval links (and the reset that approves), the forced reset, a manual trip,
   maintenance, an unrelated settings edit. */
proctype Operator() {
  byte t;
  bool ok;
end_op:
  do
#if !NOBODY_APPROVES
  /* @code raiseApproval for a trip whose orchestration waits (the page refuses any other) */
  /* (also when the store forgot every trip: the waiting trip's link still works, resumeAfterLostStore) */
  :: atomic { ph[1] == awaiting_approval && (st_trip == 1 || st_trip == 0) && !op_ok[1] -> op_ok[1] = true; apv[1] = 1 }
#if MAXTRIP > 1
  :: atomic { ph[2] == awaiting_approval && (st_trip == 2 || st_trip == 0) && !op_ok[2] -> op_ok[2] = true; apv[2] = 2 }
#endif
  /* @code forceClose: window emptied, compare-and-set to CLOSED, the orchestration ended, trigger enabled */
  :: atomic { !b_force && st != CLOSED && st_trip != 0 -> b_force = true; t = st_trip; win = 0 };
     atomic {
       ok = (st != CLOSED && st_trip == t);
       if :: ok -> st = CLOSED :: else -> skip fi
     };
     if
     :: ok ->
        atomic { if :: inst[t] == I_RUNNING -> inst[t] = I_STOPPED; ogen[t]++ :: else -> skip fi };
        atomic { if :: !maint && app_reads_disabled -> enable_switch :: else -> skip fi }
     :: else -> skip
     fi
#endif
  /* @code openManually then the trip's start (@code makeTripHandler) */
  :: atomic {
       !b_manual && st != OPEN && trips < MAXTRIP ->
       b_manual = true; trips++; st = OPEN; st_trip = trips; start_orchestration(trips, false)
     }
  /* @code enterMaintenance / @code leaveMaintenance: a supported stop that the watchdog respects */
  :: atomic { !b_maint && !maint -> b_maint = true; maint = true; if :: !sw_dot -> sw_dot = true; settings_written() :: else -> skip fi }
  :: atomic { maint -> maint = false; if :: st != OPEN && app_reads_disabled -> enable_switch :: else -> skip fi }
  /* an Approval carrying another trip's id (MAXTRIP + 1: one of an earlier deployment) raised on a
     waiting instance, once: the wait must ignore it */
  :: atomic { !b_sapv && ph[1] == awaiting_approval && apv[1] == 0 -> b_sapv = true; apv[1] = MAXTRIP + 1 }
  /* an unrelated app-settings edit: the host restarts */
  :: atomic { !b_edit -> b_edit = true; settings_written() }
  od
}

init {
  atomic {
    ph[1] = opening;
#if MAXTRIP > 1
    ph[2] = opening;
#endif
    run Owner(0);
#if F_MOVE
    run Owner(1);
#endif
    run Watchdog(); run Guard(); run Env(); run Operator(); run Invariants();
#if KILL_ANY_ACTIVITY
    run Restarter();
#endif
  }
}

/* Liveness: with the downstream back and every waiting orchestration approved (weak fairness: the
   operator, the watchdog and the world each act when they can), the breaker ends CLOSED, the trigger
   enabled and listening, and every event processed or dead-lettered. */
ltl live { <> [] (st == CLOSED && !host_disabled && listening && !maint && all_done) }

/* With nobody approving, the guard saves what waits once the margin is reached, before any expiry. */
ltl guard_saves { [] ((clock == MARGIN && waiting_exists) -> <> (!waiting_exists && clock != EXPIRED)) }
