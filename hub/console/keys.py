"""The console's keys: the key map and its help page (what the clock keys send to the hub
is in ``hub.console.clock_keys``)."""

from __future__ import annotations

from textual.binding import Binding, BindingType

# the footer shows them in this order and cuts what does not fit: Help first, so the
# way to every key shows at any width; the room's own keys (o, f) are on its status line
KEYS: list[BindingType] = [
    Binding("question_mark", "tab('help')", "Help"),
    Binding("r", "tab('room')", "Room"),
    Binding("s", "tab('standings')", "Standings"),
    Binding("v", "overall", "Overall", show=False),
    Binding("m", "measure", "MP%/points", show=False),
    Binding("x", "tab('matches')", "Matches", show=False),
    Binding("D", "draw", "Draw", show=False),
    Binding("W", "withdraw_team", "Withdraw team", show=False),
    Binding("P", "penalty", "Penalty", show=False),
    Binding("K", "knockout", "Knockout", show=False),
    Binding("c", "tab('calls')", "Calls"),
    Binding("w", "tab('slow')", "Slow"),
    Binding("l", "tab('log')", "Log"),
    Binding("t", "traveller", "Traveller"),
    Binding("d", "devices", "Devices"),
    Binding("e", "tab('desk')", "Scores"),
    Binding("a", "tab('pairs')", "Pairs"),
    Binding("p", "pause", "Pause/resume"),
    Binding("g", "start_clock", "Start clock", show=False),
    Binding("n", "next_round", "Next round", show=False),
    Binding("plus", "adjust(60)", "+1 min", show=False),
    Binding("minus", "adjust(-60)", "-1 min", show=False),
    Binding("b", "break", "Break", show=False),
    Binding("o", "sort", "Sort", show=False),
    Binding("f", "filter", "Section", show=False),
    Binding("i", "log_in", "Log in", show=False),
    Binding("escape", "leave_box", "Leave the box", show=False),
    Binding("q", "quit", "Quit"),
]

HELP = """Keys
  Enter acts on the row under the cursor in every tab (the line at the
  bottom says what it does); Escape leaves a box or a pop-up
  r  room: every table, boards done, minutes behind (+) or ahead (-) of an
     even pace, results awaiting verification, online, TD call, battery,
     device (a hardware terminal or a browser on a phone); Enter on a table:
     let a replacement terminal take it over (a dead terminal), a new code
     for its phones (a lost phone: the new code is shown to read out, the
     old one stops working), or its traveller
  s  standings of each section, with places gained or lost since the last
     standings; v switches to one overall ranking of every section and back;
     m switches the total between MP % and matchpoints (IMPs and IMPs a board)
  c  TD calls, held results, suspicious scores and withheld standings; Enter
     on a row decides it (a call: in progress, resolved with the ruling,
     deferred, a note; settled calls leave the list; a held result shows
     what was sent: accept as sent (offered when it can succeed; asks before
     replacing a stored result), accept as another board, reject (the table
     enters it again); a suspicious score:
     the contract is valid, or open the traveller to correct it; withheld
     standings: release them now, open boards marked provisional)
  w  slow tables, most behind first, and slow-play penalties; Enter on a
     penalty: NS, EW, both or shared pay, or waive
  t  traveller of a board: type its number (or section and number), Enter;
     contract, by, result, lead, NS and EW score, MP % or IMPs, who entered
     it; Enter on a result: correct, erase or adjust it (audited, re-scored,
     sent on to the screens)
  e  scores, the director's desk: the boards awaiting a score (a round ended
     without them); Enter on one scores it: the result (contract, declarer,
     result, lead), an artificial score (A+/A-, A-/A+, A/A, A+/A+, A-/A-,
     60/40, 40/60, 50/50, NS%/EW%) or a weighted score (Law 12C1(c), one
     result a line); there e scores any table, round and board, and k types
     a paper traveller or a round's slips in one screen (Enter moves on,
     Ctrl+N a new line, Ctrl+S sends; refusals shown on their lines)
  a  pairs: labels, names, member numbers; Enter on a pair: edit names and
     numbers, a substitute, withdraw it; there a adds a late pair (in the
     sit-out's place) and M changes the movement from a round on; each
     form asks to confirm, and shows the hub's answer
  In a form: Enter or Tab moves on, Ctrl+S sends, Escape leaves unsent
  d  devices: base stations (link counters), clock displays and terminals
     (hardware or browser; table, battery, signal, last heard), refreshed
     every 5 s
  l  event log, with times
  g  start the round's clock now (the room is seated); round 1 waits for it;
     a running round's clock is restarted from full time only if you confirm
  n  next round now, whether or not every table is done (asks first)
  p  pause or resume the round clock (resume also ends a break)
  +  one more minute on the clock      -  one minute less
  b  a break: 5, 10, 15 or 20 minutes (during a round: from its end)
  o  room order: by table, or the most behind first
  f  room filter: every section, then one section at a time; the clock
     keys then act on that section only
  i  log in: the director's PIN (asked for when missing or refused)
  x  matches (teams): tables, IMPs, VPs, boards out   ?  this help
  D  the next round's draw of a Swiss, Danish or Monrad: shown match by
     match, published when you confirm (refused while the round it is drawn
     from is in play), or two teams swapped first (checked again: repeats,
     byes; audited); W a team withdraws (left out of the later draws and
     of its matches not finished: its opponents get a bye or a walk-over)
  P  a procedural penalty (also Enter on a table in the Room): the table,
     who pays (NS, EW, both, shared), VP or IMP (teams) or % of a top,
     the amount, the reason, the round; asks before sending
  K  the bracket of a knockout section, round by round: teams, tables, each
     segment's IMPs, totals with the carry-over, the winner and how (or the
     extra set or sudden death that follows), byes and walk-overs; who
     chooses an opponent next and from whom; the round drawn; the places.
     There c makes the choice (the opponent from the list), p publishes the
     round drawn (asks first), w a team that does not come: walk-over to
     the other team (asks first), d the director decides a match its tie
     rule cannot (the winner from the list), a a choosing team not there
     (its turn passes) or come back, s a captain's seating choice (the
     segment its team sits first in); Escape goes back
  q  quit"""
