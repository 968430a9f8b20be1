#include "render/page_script.h"

namespace infinicts::render {

const char *const kPageScript = R"js(
(function () {
  var FILTER_KEYS = ['status', 'subject', 'mode', 'dtype', 'clause'];
  var FAILING = { fail: 1, blocked: 1, crash: 1, timeout: 1 };

  function parseFilter(hash) {
    var filter = {}, any = false;
    hash.replace(/^#/, '').split('&').forEach(function (pair) {
      var at = pair.indexOf('=');
      if (at < 0) return;
      var key = pair.slice(0, at), value = decodeURIComponent(pair.slice(at + 1));
      if (FILTER_KEYS.indexOf(key) >= 0 && value) { filter[key] = value; any = true; }
    });
    return any ? filter : null;
  }
  function fragmentOf(filter) {
    return FILTER_KEYS.filter(function (key) { return filter[key]; })
      .map(function (key) { return key + '=' + encodeURIComponent(filter[key]); }).join('&');
  }
  function matches(row, filter) {
    var data = row.dataset;
    if (filter.status && (filter.status === 'failing' ? !FAILING[data.status] : data.status !== filter.status)) return false;
    if (filter.subject && data.subject !== filter.subject) return false;
    if (filter.mode && filter.mode.split(',').indexOf(data.mode) < 0) return false;
    if (filter.dtype && data.dtype !== filter.dtype) return false;
    // The clauses are read from their cell, not repeated in an attribute: a long list, on every row.
    var clauses = row.querySelector('td.clauses');
    if (filter.clause && (' ' + (clauses ? clauses.textContent : '') + ' ').indexOf(' ' + filter.clause + ' ') < 0) return false;
    return true;
  }
  function applyFilter(filter) {
    var rows = document.querySelectorAll('#case-table tbody tr'), shown = 0;
    rows.forEach(function (row) {
      var keep = !filter || matches(row, filter);
      row.hidden = !keep;
      if (keep) shown++;
    });
    var form = document.getElementById('case-filter');
    if (form) {
      FILTER_KEYS.forEach(function (key) { if (form.elements[key]) form.elements[key].value = (filter && filter[key]) || ''; });
      document.getElementById('case-count').textContent = shown + ' of ' + rows.length + ' cases shown';
    }
    document.body.dataset.caseFilter = filter ? fragmentOf(filter) : '';
    document.body.dataset.casesShown = String(shown);
    return shown;
  }
  function followHash(scroll) {
    var filter = parseFilter(location.hash);
    applyFilter(filter);
    var cases = document.getElementById('cases');
    if (filter && scroll && cases) cases.scrollIntoView();
  }

  function setUpFilter() {
    var form = document.getElementById('case-filter');
    if (form) {
      form.hidden = false;
      form.addEventListener('change', function () {
        var filter = {};
        FILTER_KEYS.forEach(function (key) { if (form.elements[key] && form.elements[key].value) filter[key] = form.elements[key].value; });
        history.replaceState(null, '', '#' + fragmentOf(filter));
        applyFilter(parseFilter(location.hash));
      });
      document.getElementById('case-filter-clear').addEventListener('click', function () {
        history.replaceState(null, '', '#cases');
        applyFilter(null);
      });
    }
    document.querySelectorAll('a[data-filter]').forEach(function (link) {
      link.addEventListener('click', function (event) {
        event.preventDefault();
        location.hash = link.dataset.filter;  // hashchange applies it
      });
    });
    window.addEventListener('hashchange', function () { followHash(true); });
    followHash(true);
  }

  function setUpLegends() {
    document.querySelectorAll('svg [data-toggles]').forEach(function (entry) {
      entry.style.cursor = 'pointer';
      entry.addEventListener('click', function () {
        var svg = entry.ownerSVGElement;
        var hide = entry.getAttribute('data-hidden') !== 'yes';
        entry.setAttribute('data-hidden', hide ? 'yes' : 'no');
        entry.setAttribute('opacity', hide ? '0.35' : '1');
        svg.querySelectorAll('[data-series="' + entry.getAttribute('data-toggles') + '"]').forEach(function (series) {
          series.style.display = hide ? 'none' : '';
        });
      });
    });
  }

  function checkCharts() {
    var figures = document.querySelectorAll('figure.chart');
    var drawn = 0;
    figures.forEach(function (figure) {
      var svg = figure.querySelector('svg');
      var box = svg ? svg.getBBox() : { width: 0, height: 0 };
      var marks = svg ? svg.querySelectorAll('.mark').length : 0;
      var ok = box.width > 0 && box.height > 0 && marks > 0;
      figure.dataset.box = Math.round(box.width) + 'x' + Math.round(box.height);
      figure.dataset.marks = String(marks);
      figure.dataset.rendered = ok ? 'yes' : 'no';
      if (ok) drawn++;
    });
    document.body.dataset.chartsRendered = drawn + '/' + figures.length;
  }

  window.addEventListener('load', function () {
    checkCharts();
    setUpLegends();
    setUpFilter();
  });
})();
)js";

}  // namespace infinicts::render
