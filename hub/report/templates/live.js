// The results pages' live updates (docs/web-results.md): the server says its version over
// a WebSocket; when it is newer than the page's, the page fetches itself again and swaps
// its <main>. No framework; reconnects by itself.
"use strict";
(function () {
  const mark = document.getElementById("link");
  let version = document.body.dataset.version;
  let busy = false;
  let again = false;

  async function reload() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const answer = await fetch(location.pathname, { cache: "no-store" });
      if (answer.ok) {
        const page = new DOMParser().parseFromString(await answer.text(), "text/html");
        const main = page.getElementById("main");
        if (main) {
          document.getElementById("main").replaceWith(main);
          version = page.body.dataset.version;
          document.body.dataset.version = version;
          document.title = page.title;
        }
      }
    } catch (e) { /* the next news tries again */ }
    busy = false;
    if (again) { again = false; reload(); }
  }

  function connect() {
    const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/live");
    ws.onmessage = function (m) {
      const news = JSON.parse(m.data);
      if (mark) mark.classList.toggle("up", news.up !== false); // the server's link to the hub
      if (String(news.version) !== String(version)) reload();
    };
    ws.onclose = function () {
      if (mark) mark.classList.remove("up");
      setTimeout(connect, 1000);
    };
  }
  connect();
})();
