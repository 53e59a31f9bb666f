// The admin page's script (SERVICE.md §8): reloads the page's content while something is queued, running or waiting,
// and stops once all is idle. A file of its own, because the page's Content-Security-Policy allows no inline script.
(function () {
  function schedule(main) {
    if (main.dataset.poll !== 'true') return;
    setTimeout(function () {
      fetch(location.href, { headers: { 'Accept': 'text/html' } })
        .then(function (answer) { return answer.ok ? answer.text() : Promise.reject(answer.status); })
        .then(function (html) {
          var next = new DOMParser().parseFromString(html, 'text/html').getElementById('admin');
          if (next) { main.replaceWith(next); schedule(next); }
        })
        .catch(function () { schedule(main); });
    }, Number(main.dataset.pollMillis));
  }
  schedule(document.getElementById('admin'));
})();
