/* bridgehub's browser terminal (docs/web-terminal.md): a table's phone or tablet scoring
   as a Bridgemate does. Plain script, nothing fetched from outside the hub. Everything the
   table enters is kept in localStorage and sent until the hub answers it. */
'use strict';
(() => {
  const SUIT = { C: '♣', D: '♦', H: '♥', S: '♠', N: 'NT' };
  const STRAINS = ['C', 'D', 'H', 'S', 'N'];
  const SEATS = ['N', 'E', 'S', 'W'];
  const RANKS = ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '3', '2'];
  const VUL = ['none', 'ns', 'ew', 'all', 'ns', 'ew', 'all', 'none',
    'ew', 'all', 'none', 'ns', 'all', 'none', 'ns', 'ew']; // boards 1-16, then again
  const RED = new Set(['D', 'H']);

  // -- storage: the device's id and, per table, all the page keeps ------------------------
  const store = {
    get(name, fallback) {
      try {
        const raw = localStorage.getItem('bh.' + name);
        return raw === null ? fallback : JSON.parse(raw);
      } catch (e) { return fallback; }
    },
    set(name, value) {
      try { localStorage.setItem('bh.' + name, JSON.stringify(value)); } catch (e) { /* full: go on in memory */ }
    },
  };

  function deviceId() {
    let id = store.get('device', null);
    if (!id) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      store.set('device', id);
    }
    return id;
  }

  function nextId() {
    const id = store.get('next_id', 1);
    store.set('next_id', id >= 2000000000 ? 1 : id + 1);
    return id;
  }

  function tableFromUrl() {
    const m = location.pathname.match(/^\/t\/([A-Za-z]{1,3})(\d{1,3})\/?$/);
    if (!m) return null;
    const code = new URLSearchParams(location.search).get('c') || '';
    return { section: m[1].toUpperCase(), table: Number(m[2]), code: code.trim().toUpperCase() };
  }

  const where = tableFromUrl();
  const tableKey = where ? 'table.' + where.section + where.table : null;
  const freshTable = () => ({
    loggedOn: false, assignment: null, session: null, boards: {}, pending: [], travellers: {}, hands: {},
    ranking: null, match: null, names: {}, seating: {}, messages: [], clock: null, logonError: '',
    ui: { screen: where ? 'wait' : 'join', draft: null }, eventKey: '',
  });
  const T = Object.assign(freshTable(), tableKey ? store.get(tableKey, {}) : {});
  const net = {
    ws: null, ready: false, backoff: 0, logonId: null, retry: {}, pin: '', relogons: 0, welcomed: false, refusal: '',
    retired: false,
  };
  const save = () => { if (tableKey && !net.retired) store.set(tableKey, T); };

  /* One live page per table and browser: the link scanned again opens a second tab, and two
     tabs writing the same storage would overwrite each other's unanswered entries. The
     newest tab takes the table; an older one stops (saving and connecting) and says so. */
  const tabs = tableKey && 'BroadcastChannel' in window ? new BroadcastChannel('bh.' + tableKey) : null;
  function retire() {
    net.retired = true;
    if (net.ws) { const ws = net.ws; net.ws = null; ws.close(); }
    T.ui.screen = 'elsewhere';
    render();
  }
  if (tabs) tabs.onmessage = (e) => { if (e.data === 'taken' && !net.retired) retire(); };
  let words = {};
  let strings = { en: {} };

  // -- words ---------------------------------------------------------------------------------
  function t(name, vars) {
    const text = words[name] || strings.en[name] || name;
    return text.replace(/\{(\w+)\}/g, (_, v) => (vars && vars[v] !== undefined ? vars[v] : ''));
  }

  function setLanguage(lang) {
    words = strings[lang] || strings.en;
    document.documentElement.lang = strings[lang] ? lang : 'en';
  }

  // -- bridge: contracts, scores -------------------------------------------------------------
  const tableName = () => where.section + where.table;
  const recKey = (round, board) => round + ':' + board;

  function contractText(c) {
    if (!c) return t('not_played');
    if (c === 'PASS') return t('passed_out');
    const m = c.match(/^([1-7])(C|D|H|S|NT)(X{0,2})$/);
    return m ? m[1] + SUIT[m[2][0]] + m[3] : c;
  }

  function leadText(lead) { return lead ? SUIT[lead[0]] + lead.slice(1) : ''; }

  function resultText(level, tricks) {
    const over = tricks - level - 6;
    return over === 0 ? '=' : (over > 0 ? '+' : '') + over;
  }

  function vulnerable(board, declarer) {
    const v = VUL[(board - 1) % 16];
    return v === 'all' || (v === 'ns' && 'NS'.includes(declarer)) || (v === 'ew' && 'EW'.includes(declarer));
  }

  function declarerScore(level, strain, dbl, vul, tricks) {
    const need = level + 6;
    const mult = dbl === 'XX' ? 4 : dbl === 'X' ? 2 : 1;
    if (tricks < need) return -undertricks(need - tricks, mult, vul);
    const per = strain === 'C' || strain === 'D' ? 20 : 30;
    const trickScore = (level * per + (strain === 'N' ? 10 : 0)) * mult;
    let score = trickScore + (trickScore >= 100 ? (vul ? 500 : 300) : 50);
    if (level === 6) score += vul ? 750 : 500;
    if (level === 7) score += vul ? 1500 : 1000;
    if (mult > 1) score += 25 * mult; // the insult: 50, 100
    const over = tricks - need;
    return score + over * (mult === 1 ? per : (vul ? 100 : 50) * mult);
  }

  function undertricks(down, mult, vul) {
    if (mult === 1) return down * (vul ? 100 : 50);
    let total = 0;
    for (let i = 1; i <= down; i++) total += i === 1 ? (vul ? 200 : 100) : (vul || i > 3 ? 300 : 200);
    return total * mult / 2;
  }

  function nsScore(d) {
    if (d.noPlay || d.pass) return 0;
    const s = declarerScore(d.level, d.strain, d.dbl, vulnerable(d.board, d.declarer), d.tricks);
    return 'NS'.includes(d.declarer) ? s : -s;
  }

  const signed = (n) => (n > 0 ? '+' + n : n < 0 ? '−' + -n : '0');
  const scoreText = (n) => 'NS ' + signed(n);

  function draftText(d) {
    if (d.noPlay) return t('not_played');
    if (d.pass) return t('passed_out');
    const lead = d.lead ? ', ' + t('lead_is', { c: leadText(d.lead) }) : '';
    const contract = d.level + SUIT[d.strain] + d.dbl;
    return contract + ' ' + t('short_' + d.declarer) + ' ' + resultText(d.level, d.tricks) + lead;
  }

  function contractOf(d) {
    if (d.noPlay) return '';
    if (d.pass) return 'PASS';
    return d.level + (d.strain === 'N' ? 'NT' : d.strain) + d.dbl;
  }

  // -- the round: boards, what is entered ------------------------------------------------
  const A = () => T.assignment;
  const record = (board) => (A() ? T.boards[recKey(A().round, board)] : undefined);
  const entered = (board) => { const r = record(board); return r && r.status !== 'erased'; };
  const drafted = () => T.boards[recKey(T.ui.draft.round, T.ui.draft.board)];
  const nextBoard = () => (A() ? A().boards.find((b) => !entered(b)) : undefined);
  const sitsOut = () => A() && (!A().ns || !A().ew);

  function boardsText(boards) {
    if (!boards || !boards.length) return '';
    const run = boards.every((b, i) => i === 0 || b === boards[i - 1] + 1);
    return run && boards.length > 1 ? boards[0] + '–' + boards[boards.length - 1] : boards.join(', ');
  }

  // -- the connection -----------------------------------------------------------------------
  function connect() {
    if (net.retired) return;
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
    net.ws = ws;
    ws.onopen = () => {
      net.relogons = 0;
      net.welcomed = false;
      sendRaw({ type: 'hello', device: deviceId(), version: 1 });
    };
    ws.onmessage = (e) => receive(e.data);
    ws.onerror = () => ws.close();
    ws.onclose = () => {
      if (net.ws !== ws) return;
      net.ws = null; net.ready = false; net.logonId = null;
      renderBar();
      setTimeout(connect, net.backoff); // at once after a good connection, then 1 s doubling to 8 s
      net.backoff = Math.min(Math.max(net.backoff * 2, 1000), 8000);
    };
  }

  function sendRaw(msg) {
    if (net.ws && net.ws.readyState === WebSocket.OPEN) net.ws.send(JSON.stringify(msg));
  }

  /* A request is kept until its answer comes: sent now when logged on, else after the next
     log-on (oldest first). */
  function request(msg) {
    msg.id = nextId();
    T.pending.push(msg);
    save();
    if (net.ready) sendRaw(msg);
    return msg;
  }

  function logon() {
    net.logonId = nextId();
    const code = T.loggedOn ? '' : where.code;
    sendRaw({ type: 'logon', id: net.logonId, section: where.section, table: where.table, code, pin: net.pin });
  }

  function resendAll() { for (const msg of T.pending) sendRaw(msg); }

  function retryBusy(msg) {
    const wait = net.retry[msg.id] ? Math.min(net.retry[msg.id] * 2, 8000) : 1000;
    net.retry[msg.id] = wait;
    setTimeout(() => { if (net.ready && T.pending.includes(msg)) sendRaw(msg); }, wait);
  }

  function receive(raw) {
    let msg;
    try { msg = JSON.parse(raw); } catch (e) { return; }
    const handler = ON[msg && msg.type];
    if (handler) { handler(msg); save(); render(); }
  }

  // -- what the hub says ----------------------------------------------------------------------
  const ON = {
    welcome(m) {
      net.backoff = 0;
      net.welcomed = true;
      net.refusal = '';
      if (T.eventKey && m.event_key && T.eventKey !== m.event_key) {
        // another event on this phone (next week's): nothing of the last one is shown or sent
        Object.keys(T).forEach((k) => delete T[k]);
        Object.assign(T, freshTable());
      }
      T.eventKey = m.event_key || '';
      T.lang = m.language;
      setLanguage(m.language);
      T.event = m.event;
      if (where) logon();
    },
    answer(m) {
      if (m.id === null && !net.welcomed) { net.refusal = m.text; return; } // hello refused: say why
      if (m.id !== null && m.id === net.logonId) { loggedOn(m); return; }
      const msg = T.pending.find((p) => p.id === m.id);
      if (!msg) return;
      if (m.reason === 'busy') { retryBusy(msg); return; }
      if (m.reason === 'not_logged_on') { lostTable(m); return; }
      T.pending.splice(T.pending.indexOf(msg), 1);
      delete net.retry[msg.id];
      (ANSWERED[msg.type] || answeredOther)(msg, m);
    },
    assignment(m) {
      const old = A();
      T.assignment = m;
      const fresh = !old || old.round !== m.round || old.section !== m.section;
      const busy = inEntry() || ['outcome', 'players', 'correct'].includes(T.ui.screen);
      if ((fresh && !busy) || ['wait', 'logon'].includes(T.ui.screen)) goNextBoard();
    },
    session(m) {
      T.session = m;
      if (m.final && !inEntry() && T.ui.screen !== 'outcome') T.ui.screen = 'final';
    },
    traveller(m) { T.travellers[m.board] = m; },
    hand(m) { T.hands[m.board] = m; },
    match_score(m) { T.match = m; },
    message(m) {
      T.messages.push(m.text);
      const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive; // else refused
      if (m.beep && navigator.vibrate && touched) navigator.vibrate([200, 100, 200]);
    },
    ranking(m) {
      if (!T.ranking || T.ranking.round !== m.round || T.ranking.pages !== m.pages) {
        T.ranking = { round: m.round, pages: m.pages, lines: {} };
      }
      T.ranking.lines[m.page] = m.lines;
    },
    clock(m) { T.clock = Object.assign({}, m, { at: Date.now() }); },
    player_name(m) { T.names[recKey(m.round, m.seat)] = m; },
    next_seating(m) { T.seating[m.pair] = m; },
  };

  /* "Log on first": the hub does not know this device now (restarted, or the table was
     taken over). Log on again (the request stays kept); twice in vain: ask the table. */
  function lostTable(m) {
    net.ready = false;
    if (net.relogons++ < 2) { logon(); return; }
    T.logonError = m.text;
    T.ui.screen = 'logon';
  }

  function loggedOn(m) {
    net.logonId = null;
    if (m.outcome !== 'ok') {
      if (T.loggedOn && m.reason !== 'busy') T.loggedOn = false; // the table went to another device
      T.logonError = m.text || m.reason || '';
      T.ui.screen = 'logon';
      return;
    }
    T.loggedOn = true;
    T.logonError = '';
    net.ready = true;
    net.pin = '';
    if (location.search) history.replaceState(null, '', location.pathname); // the code is used up
    resendAll();
    if (['wait', 'logon'].includes(T.ui.screen)) goNextBoard();
  }

  const ANSWERED = {
    result(msg, m) {
      const rec = T.boards[recKey(msg.round, msg.board)];
      if (!rec || rec.revision !== msg.revision) return;
      rec.status = m.outcome === 'duplicate' ? 'accepted' : m.outcome;
      rec.text = m.text || '';
      sendVerify(rec);
    },
    verify(msg) {
      const rec = T.boards[recKey(msg.round, msg.board)];
      if (rec) rec.verifyAnswered = true;
    },
    td_call(msg, m) { if (m.outcome === 'refused') toast(m.text); },
  };

  function answeredOther(msg, m) { if (m.outcome === 'refused' && m.text) toast(m.text); }

  function sendVerify(rec) {
    if (rec.status !== 'accepted' || rec.verified === null || rec.verifySent || rec.msg.no_play) return;
    rec.verifySent = true;
    const r = rec.msg;
    request({
      type: 'verify', section: r.section, table: r.table, round: r.round, board: r.board, agreed: rec.verified,
    });
  }

  // -- what the table does --------------------------------------------------------------------
  function go(screen) { T.ui.screen = screen; save(); render(); }

  function goNextBoard() {
    if (!A()) { T.ui.screen = 'wait'; return; }
    if (T.session && T.session.final && nextBoard() === undefined) { T.ui.screen = 'final'; return; }
    const board = sitsOut() ? undefined : nextBoard();
    if (board === undefined) { T.ui.screen = 'round'; return; }
    startBoard(board, 1);
  }

  function startBoard(board, revision) {
    const a = A();
    T.ui.draft = {
      section: a.section, table: a.table, round: a.round, ns: a.ns, ew: a.ew, board, revision,
      level: 0, strain: '', dbl: '', declarer: '', lead: '', tricks: null, pass: false, noPlay: false,
    };
    T.ui.screen = 'contract';
    request({ type: 'started', section: a.section, table: a.table, round: a.round, board });
  }

  function enterBoard(board, revision) { startBoard(board, revision); save(); render(); }

  function inEntry() {
    return ['contract', 'double', 'declarer', 'lead', 'rank', 'tricks', 'confirm', 'verify'].includes(T.ui.screen);
  }

  function submit() {
    const d = T.ui.draft;
    const msg = request({
      type: 'result', section: d.section, table: d.table, round: d.round, board: d.board,
      ns: d.ns, ew: d.ew, contract: contractOf(d), declarer: d.pass || d.noPlay ? null : d.declarer,
      lead: d.lead, tricks: d.pass || d.noPlay ? null : d.tricks, revision: d.revision, no_play: d.noPlay,
    });
    T.boards[recKey(d.round, d.board)] = {
      msg, revision: d.revision, status: 'sending', text: '', verified: null, verifySent: false,
      summary: draftText(d), score: nsScore(d),
    };
    go(d.noPlay ? 'outcome' : 'verify');
  }

  function verify(agreed) {
    const rec = drafted();
    rec.verified = agreed;
    sendVerify(rec);
    go('outcome');
  }

  function correctBoard(board) {
    const rec = record(board);
    const a = A();
    request({ type: 'erase', section: a.section, table: a.table, round: a.round, board, revision: rec.revision });
    rec.status = 'erased';
    enterBoard(board, rec.revision + 1);
  }

  function callDirector() {
    const a = A();
    request({ type: 'td_call', section: where.section, table: where.table, round: a ? a.round : 0, text: '' });
    toast(t('td_called'));
  }

  function sendPlayer(seat, number) {
    const a = A();
    request({ type: 'player', section: a.section, table: a.table, round: a.round, seat, number });
  }

  // -- drawing ---------------------------------------------------------------------------------
  function h(tag, props, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === 'on') el.addEventListener('click', v);
      else if (k === 'k') el.dataset.k = v;
      else if (k === 'class') el.className = v;
      else if (v !== false && v !== null && v !== undefined) el.setAttribute(k, v === true ? '' : v);
    }
    for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false) el.append(kid);
    return el;
  }

  const button = (k, label, on, cls) => h('button', { type: 'button', k, class: cls || '', on }, label);
  const title = (text) => h('h1', {}, text);
  const note = (text, cls) => h('p', { class: 'note ' + (cls || '') }, text);
  const grid = (cls, ...kids) => h('div', { class: 'grid ' + cls }, ...kids);
  const strainLabel = (s) => h('span', { class: RED.has(s) ? 'red' : '' }, SUIT[s]);

  function boardHead(d) {
    const vul = t('vul_' + VUL[(d.board - 1) % 16]);
    const rev = d.revision > 1 ? ' (' + d.revision + ')' : '';
    return h('div', { class: 'board-head' },
      h('h1', { k: 'board-title' }, t('board', { b: d.board }) + rev), h('span', { class: 'vul' }, vul));
  }

  const SCREENS = {
    join() {
      const field = (name, label, type, extra) => h('label', {}, label,
        h('input', Object.assign({ name, type, autocomplete: 'off', k: 'join-' + name }, extra)));
      const form = h('form', { class: 'join', k: 'join-form' },
        field('section', t('section'), 'text', { value: 'A', maxlength: 3, autocapitalize: 'characters' }),
        field('table', t('table'), 'number', { inputmode: 'numeric', min: 1, max: 999 }),
        field('code', t('code'), 'text', { maxlength: 8, autocapitalize: 'characters' }),
        h('button', { type: 'submit', k: 'join' }, t('join')));
      form.addEventListener('submit', (e) => { e.preventDefault(); join(form); });
      return [title(t('join_title')), note(t('join_note')), form];
    },
    elsewhere() {
      return [title(t('other_tab_title')), note(t('other_tab'))];
    },
    wait() {
      if (!where) return [title(t('connecting'))];
      const text = !net.ws ? t('connecting') : T.loggedOn ? t('wait_round') : t('logging_on', { t: tableName() });
      return [title(text), net.refusal ? note(net.refusal, 'error') : null];
    },
    logon() {
      const code = h('input', {
        type: 'text', maxlength: 8, autocapitalize: 'characters', k: 'logon-code', value: T.loggedOn ? '' : where.code,
      });
      const pin = h('input', { type: 'password', autocomplete: 'off', k: 'logon-pin' });
      const send = () => {
        where.code = code.value.trim().toUpperCase();
        net.pin = pin.value;
        T.loggedOn = false;
        logon();
      };
      return [title(t('logon_refused', { t: tableName() })), note(T.logonError, 'error'),
        h('label', {}, t('code'), code), h('label', {}, t('pin'), pin), button('logon', t('logon'), send, 'wide go')];
    },
    round() {
      if (sitsOut()) return [title(t('sit_out')), seatingList(), rankingBlock()];
      const done = nextBoard() === undefined;
      return [title(done ? t('round_done') : t('board_list')), done ? note(t('wait_next')) : null,
        done ? matchBlock() : null, boardList(), otherBoard(), seatingList(), playersButton(),
        done ? rankingBlock() : null];
    },
    contract() {
      const d = T.ui.draft;
      const levels = [1, 2, 3, 4, 5, 6, 7].map((n) => button('level-' + n, String(n),
        () => { d.level = n; render(); }, d.level === n ? 'on' : ''));
      const strains = STRAINS.map((s) => {
        const b = button('strain-' + s, strainLabel(s), () => { d.strain = s; go('double'); });
        b.disabled = !d.level;
        return b;
      });
      return [boardHead(d),
        grid('levels', levels), grid('strains', strains),
        grid('two', button('pass', t('pass'), () => { d.pass = true; go('confirm'); }, 'wide'),
          button('not-played', t('not_played'), () => { d.noPlay = true; go('confirm'); }, 'wide quiet')),
        grid('two', button('boards', t('board_list'), () => go('round'), 'quiet'))];
    },
    double() {
      const d = T.ui.draft;
      const pick = (v) => () => { d.dbl = v; go('declarer'); };
      return [boardHead(d), h('h2', {}, d.level, strainLabel(d.strain), ' — ', t('doubled')),
        grid('three', button('dbl-none', t('undoubled'), pick('')),
          button('dbl-X', 'X', pick('X')), button('dbl-XX', 'XX', pick('XX'))),
        backButton('contract')];
    },
    declarer() {
      const d = T.ui.draft;
      return [boardHead(d), h('h2', {}, t('declarer')),
        grid('seats', SEATS.map((s) => button('decl-' + s, t('seat_' + s), () => { d.declarer = s; go('lead'); }))),
        backButton('double')];
    },
    lead() {
      const d = T.ui.draft;
      return [boardHead(d), h('h2', {}, t('lead')),
        grid('suits', ['S', 'H', 'D', 'C'].map((s) =>
          button('lead-' + s, strainLabel(s), () => { d.leadSuit = s; go('rank'); }))),
        button('lead-skip', t('skip'), () => { d.lead = ''; go('tricks'); }, 'wide quiet'), backButton('declarer')];
    },
    rank() {
      const d = T.ui.draft;
      return [boardHead(d), h('h2', {}, t('lead_rank', { s: SUIT[d.leadSuit] })),
        grid('ranks', RANKS.map((r) => button('rank-' + r, r, () => { d.lead = d.leadSuit + r; go('tricks'); }))),
        backButton('lead')];
    },
    tricks() {
      const d = T.ui.draft;
      const need = d.level + 6;
      const pick = (n) => () => { d.tricks = n; go('confirm'); };
      const over = [];
      for (let n = need + 1; n <= 13; n++) over.push(button('tricks-' + n, '+' + (n - need), pick(n)));
      const down = [];
      for (let n = need - 1; n >= 0; n--) down.push(button('tricks-' + n, '−' + (need - n), pick(n)));
      const said = d.dbl + ' ' + t('short_' + d.declarer) + ' — ' + t('result');
      const contract = h('h2', {}, d.level, strainLabel(d.strain), said);
      return [boardHead(d), contract,
        button('tricks-' + need, t('made'), pick(need), 'wide made'), grid('over', over), grid('down', down),
        backButton('lead')];
    },
    confirm() {
      const d = T.ui.draft;
      const back = d.pass || d.noPlay ? () => { d.pass = d.noPlay = false; go('contract'); } : () => go('tricks');
      return [boardHead(d), h('h2', {}, t('check')),
        h('p', { class: 'summary', k: 'summary' }, draftText(d)),
        d.noPlay ? note(t('no_play_note')) : h('p', { class: 'score', k: 'score' }, scoreText(nsScore(d))),
        grid('two', button('confirm', t('confirm'), submit, 'go'), button('back', t('back'), back, 'quiet'))];
    },
    verify() {
      const d = T.ui.draft;
      const rec = drafted();
      return [boardHead(d), h('h2', {}, t('opponents')), note(t('opponents_note')),
        h('p', { class: 'summary' }, rec.summary), h('p', { class: 'score', k: 'score' }, scoreText(rec.score)),
        grid('two', button('agree', t('agree'), () => verify(true), 'go'),
          button('disagree', t('disagree'), () => verify(false), 'stop'))];
    },
    outcome() {
      const d = T.ui.draft;
      const rec = drafted();
      const next = sitsOut() ? undefined : nextBoard();
      const onward = () => { goNextBoard(); save(); render(); };
      return [boardHead(d), h('p', { class: 'summary' }, rec.summary, ' · ', scoreText(rec.score)),
        statusBlock(rec), travellerBlock(d.board), next === undefined ? matchBlock() : null, handBlock(d.board),
        button('next', next === undefined ? t('ok') : t('next_board', { b: next }), onward, 'wide go')];
    },
    correct() {
      const board = T.ui.draft.board;
      const rec = record(board);
      const was = rec.summary + ', ' + scoreText(rec.score);
      return [title(t('correct', { b: board })), note(t('correct_note', { r: was })),
        grid('two', button('correct-yes', t('correct_yes'), () => correctBoard(board), 'stop'), backButton('round'))];
    },
    final() {
      return [h('h1', { k: 'final' }, t('final')), note(t('session_over')), matchBlock(), rankingBlock(false)];
    },
    players() {
      const a = A();
      const rows = SEATS.map((s, seat) => {
        const known = T.names[recKey(a.round, seat)];
        const number = known ? known.number : '';
        const input = h('input', { type: 'text', inputmode: 'numeric', k: 'player-' + s, value: number });
        const keep = button('player-save-' + s, t('save'), () => {
          if (input.value.trim()) sendPlayer(seat, input.value.trim());
        });
        return h('div', { class: 'player' }, h('label', {}, t('seat_' + s) + ' · ' + t('member_no'), input),
          known && known.name ? note(known.name) : null, keep);
      });
      return [title(t('players')), rows, backButton('round')];
    },
  };

  const backButton = (screen) => button('back', t('back'), () => go(screen), 'quiet');

  function statusBlock(rec) {
    let status = rec.status;
    let text = rec.text;
    if (status === 'sending' && !net.ready) text = t('saved');
    if (status === 'accepted' && rec.verified === false) { status = 'disagreed'; text = ''; }
    const label = status === 'sending' ? t('sending') : t(status);
    if (text && text.toLowerCase().startsWith(label.toLowerCase())) { // "held for the director: why"
      text = text.slice(label.length).replace(/^[:\s]+/, '');
    }
    const same = !text || text.toLowerCase() === label.toLowerCase();
    const kids = [h('strong', {}, label), text && !same ? h('span', { k: 'status-text' }, text) : null];
    const d = T.ui.draft;
    if ((status === 'refused' || status === 'disagreed') && A() && d.round === A().round) {
      kids.push(button('enter-again', t('enter_again'), () => askCorrect(T.ui.draft.board)));
    }
    return h('div', { class: 'status ' + status, k: 'status', 'data-status': status }, kids);
  }

  function askCorrect(board) {
    const rec = record(board);
    if (rec && rec.status === 'refused') { rec.status = 'erased'; enterBoard(board, rec.revision + 1); return; }
    T.ui.draft = { round: A().round, board };
    go('correct');
  }

  function boardList() {
    const items = A().boards.map((b) => {
      const rec = record(b);
      const state = rec && rec.status !== 'erased' ? rec.status : 'open';
      const label = h('span', {}, t('board', { b }));
      const detail = h('small', {}, rec && state !== 'open' ? rec.summary + ' · ' + scoreText(rec.score) : '');
      const open = state === 'open' ? () => enterBoard(b, rec ? rec.revision + 1 : 1) : () => askCorrect(b);
      return button('board-' + b, [label, detail], open, 'board ' + state);
    });
    return grid('boards', items);
  }

  function otherBoard() {
    const input = h('input', { type: 'number', inputmode: 'numeric', min: 1, max: 999, k: 'other-board' });
    const goTo = () => {
      const b = Number(input.value);
      if (!Number.isInteger(b) || b < 1) return;
      const rec = record(b);
      if (rec && rec.status !== 'erased') askCorrect(b);
      else enterBoard(b, rec ? rec.revision + 1 : 1);
    };
    return h('div', { class: 'other' }, h('label', {}, t('other_board'), input), button('other-go', t('go'), goTo));
  }

  function playersButton() { return A() ? button('players', t('players'), () => go('players'), 'quiet wide') : null; }

  function seatingList() {
    const lines = Object.values(T.seating).filter((s) => A() && s.round > A().round);
    return lines.map((s) => note(s.table
      ? t('next_seating', {
        pair: s.pair_label || s.pair, r: s.round, t: s.table, dir: t(s.ns ? 'dir_ns' : 'dir_ew'),
        opp: s.opponents_label || s.opponents, b: boardsText(s.boards),
      })
      : t('next_sitout', { pair: s.pair_label || s.pair, r: s.round }), 'seating'));
  }

  function travellerBlock(board) {
    const tr = T.travellers[board];
    if (!tr) return null;
    const a = A();
    const unit = tr.imps ? '' : '%';
    const rows = tr.rows.map((r) => h('tr', { class: a && r.ns === a.ns && r.ew === a.ew ? 'own' : '' },
      h('td', {}, r.ns_label || r.ns), h('td', {}, r.ew_label || r.ew),
      h('td', {}, contractText(r.contract) + (r.declarer ? ' ' + t('short_' + r.declarer) : '')),
      h('td', {}, r.tricks === null || r.tricks === undefined ? '' : r.tricks),
      h('td', { class: 'num' }, signed(r.score_ns)), h('td', { class: 'num' }, r.text + unit)));
    return h('div', { class: 'traveller', k: 'traveller' },
      h('h2', {}, t('traveller', { b: board }), ' · ', t('your_score', { s: tr.own_text + unit })),
      h('table', {}, h('tbody', {}, rows)));
  }

  /* The board's hand record once the table has played it: the four hands around the
     table, then what was makeable double dummy and the par (docs/web-terminal.md). */
  function handBlock(board) {
    const hd = (T.hands || {})[board];
    if (!hd) return null;
    const seat = (s) => h('div', { class: 'hand hand-' + s },
      h('strong', {}, t('seat_' + s)),
      ...['S', 'H', 'D', 'C'].map((suit, k) => h('div', { class: 'cards' },
        h('span', { class: ['H', 'D'].includes(suit) ? 'red' : '' }, SUIT[suit]), ' ', hd.hands[s][k] || '–')));
    return h('div', { class: 'hand-record', k: 'hand-record' },
      h('h2', {}, t('hand_record')),
      h('div', { class: 'deal' }, seat('N'), seat('W'), seat('E'), seat('S')),
      hd.makeable ? note(t('makeable', { m: hd.makeable }), 'makeable') : null,
      hd.par ? note(t('par', { p: hd.par }), 'par') : null);
  }

  /* A team match's running score once the table has entered all its boards (MATCH_SCORE,
     docs/web-terminal.md): home and away, IMPs and VPs, the boards still to compare. */
  function matchBlock() {
    const m = T.match;
    if (!m || !A() || m.round !== A().round || m.section !== A().section) return null;
    const team = (label, name) => (name ? label + ' ' + name : label);
    const row = (k, label, name, imps, vp) => h('tr', { k },
      h('td', {}, team(label, name)), h('td', { class: 'num' }, imps + ' ' + t('imps')),
      h('td', { class: 'num' }, vp + ' ' + t('vp')));
    return h('div', { class: 'match', k: 'match' },
      h('h2', {}, t('match', { r: m.round })),
      h('table', {}, h('tbody', {},
        row('match-home', m.home_label || m.home, m.home_name, m.home_imps_text, m.home_vp_text),
        row('match-away', m.away_label || m.away, m.away_name, m.away_imps_text, m.away_vp_text))),
      note(m.out ? t('match_out', { n: m.out }) : t('match_all'), 'match-out'));
  }

  function rankingBlock(heading = true) {
    const rk = T.ranking;
    if (!rk) return null;
    const final = T.session && T.session.final;
    const pages = Object.keys(rk.lines).map(Number).sort((x, y) => x - y);
    const rows = pages.flatMap((p) => rk.lines[p]).map((l) => h('tr', {},
      h('td', {}, l.rank), h('td', {}, l.label || l.entrant), h('td', {}, l.names || ''),
      h('td', { class: 'num' }, l.text)));
    return h('div', { class: 'ranking', k: 'ranking' },
      heading ? h('h2', {}, final ? t('final') : t('ranking', { r: rk.round })) : null,
      h('table', {}, h('tbody', {}, rows)));
  }

  function join(form) {
    const section = form.section.value.trim().toUpperCase();
    const table = Number(form.table.value);
    const code = form.code.value.trim().toUpperCase();
    if (!/^[A-Z]{1,3}$/.test(section) || !Number.isInteger(table) || table < 1 || !code) {
      toast(t('bad_input'));
      return;
    }
    location.assign('/t/' + section + table + '?c=' + encodeURIComponent(code));
  }

  // -- the bar, the director's messages, the clock ----------------------------------------------
  function renderBar() {
    const bar = document.getElementById('bar');
    bar.hidden = !where;
    if (!where) return;
    const a = A();
    const rounds = T.session && T.session.rounds;
    document.getElementById('where').textContent = a
      ? t(rounds ? 'where_of' : 'where', { t: tableName(), r: a.round, n: rounds }) : t('table') + ' ' + tableName();
    document.getElementById('pairs').textContent = a && !sitsOut()
      ? a.ns_label + ' – ' + a.ew_label + ' · ' + t('boards', { b: boardsText(a.boards) }) : '';
    const td = document.getElementById('td');
    td.textContent = t('td');
    td.disabled = !T.loggedOn || net.retired;
    const unsent = T.pending.filter((p) => p.type === 'result').length;
    const online = net.ws && net.ws.readyState === WebSocket.OPEN;
    const link = document.getElementById('link');
    link.hidden = net.retired || (online && !unsent); // a stopped tab: the other tab sends
    const words = [online ? '' : t('offline'), unsent ? t('unsent', { n: unsent }) : ''];
    link.textContent = words.filter(Boolean).join(' · ');
    renderClock();
  }

  function renderClock() {
    const el = document.getElementById('clock');
    const c = T.clock;
    const over = T.session && T.session.final;
    if (!c || !A() || c.round !== A().round || over) { el.textContent = ''; return; }
    const gone = c.phase === 'paused' ? 0 : Math.floor((Date.now() - c.at) / 1000);
    const left = Math.max(0, c.seconds_left - gone);
    const mmss = Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
    el.textContent = t('clock_' + c.phase) + ' ' + mmss;
    el.className = left < 120 && c.phase !== 'paused' ? 'late' : '';
  }

  function renderMessage() {
    const box = document.getElementById('message');
    box.hidden = !T.messages.length;
    if (!T.messages.length) return;
    document.getElementById('message-title').textContent = t('message');
    document.getElementById('message-text').textContent = T.messages[0];
    document.getElementById('message-ok').textContent = t('ok');
  }

  let toastTimer = 0;
  function toast(text) {
    const el = document.getElementById('toast');
    el.textContent = text;
    el.hidden = !text;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
  }

  function render() {
    const screen = SCREENS[T.ui.screen] ? T.ui.screen : 'wait';
    const main = document.getElementById('screen');
    const focused = document.activeElement;
    const typing = focused && focused.tagName === 'INPUT' && main.contains(focused);
    if (!typing || main.dataset.screen !== screen) { // never under the fingers of someone typing
      main.dataset.screen = screen;
      main.replaceChildren(...[SCREENS[screen]()].flat(2).filter(Boolean));
    }
    renderBar();
    renderMessage();
  }

  // -- start -------------------------------------------------------------------------------
  function start() {
    if (tabs) tabs.postMessage('taken'); // an older tab of this table stops now
    setLanguage('en');
    document.getElementById('td').addEventListener('click', callDirector);
    document.getElementById('message-ok').addEventListener('click', () => { T.messages.shift(); save(); render(); });
    setInterval(renderClock, 1000);
    window.addEventListener('online', () => { if (net.ws) net.ws.close(); });
    fetch('/static/strings.json').then((r) => r.json()).then((s) => { strings = s; }).catch(() => {})
      .then(() => { setLanguage(T.lang || 'en'); render(); connect(); });
  }

  start();
})();
