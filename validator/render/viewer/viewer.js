// gamerec viewer: steps through the positions the page carries (validator/render/viewer).
(function () {
  "use strict";
  var source = document.getElementById("game-data");
  if (!source) { return; }
  var data = JSON.parse(source.textContent);
  var nodes = data.nodes, lines = data.lines, parts = data.elements;
  var position = document.getElementById("position");
  var caption = document.getElementById("caption");
  var status = document.getElementById("status");
  var findingPanel = document.getElementById("finding");
  // The score chart and the win-probability graph: a cursor at the ply on each.
  var charts = [["chart", "chart-cursor"], ["win-graph", "win-cursor"]].map(function (ids) {
    return {svg: document.getElementById(ids[0]), cursor: document.getElementById(ids[1])};
  }).filter(function (chart) { return chart.svg && chart.cursor; });
  var graph = data.graph;
  var rows = document.querySelectorAll("#seats tbody tr");
  var buttons = {};
  var current = -1;
  Array.prototype.forEach.call(document.querySelectorAll("[data-go]"), function (button) {
    buttons[button.getAttribute("data-go")] = button;
    button.addEventListener("click", function () { go(button.getAttribute("data-go")); });
  });

  function text(value) { return document.createTextNode(String(value)); }
  function indexIn(line, number) { return lines[line].n.indexOf(number); }

  // Where each move leads: the node number, or -1 when there is nowhere to go.
  var moves = {
    first: function () { return lines[0].n[0]; },
    prev: function (number) {
      var node = nodes[number], at = indexIn(node.l, number);
      if (at > 0) { return lines[node.l].n[at - 1]; }
      return lines[node.l].p >= 0 ? lines[node.l].b : -1;
    },
    next: function (number) {
      var line = lines[nodes[number].l], at = line.n.indexOf(number);
      return at + 1 < line.n.length ? line.n[at + 1] : -1;
    },
    last: function (number) {
      var line = lines[nodes[number].l];
      return line.n[line.n.length - 1];
    },
    enter: function (number) {
      var node = nodes[number];
      if (node.b.length) { return lines[node.b[0]].n[0]; }
      var line = lines[node.l];
      if (line.p < 0 || indexIn(node.l, number) !== 0) { return -1; }
      var siblings = nodes[line.b].b, at = siblings.indexOf(node.l);
      return at + 1 < siblings.length ? lines[siblings[at + 1]].n[0] : -1;
    },
    leave: function (number) {
      var line = lines[nodes[number].l];
      return line.p >= 0 ? line.b : -1;
    }
  };

  function go(name) {
    var target = moves[name](current);
    if (target >= 0 && target !== current) { show(target, true); }
  }

  function seatName(seat) {
    var name = data.names[seat - 1];
    return name ? "Seat " + seat + " (" + name + ")" : "Seat " + seat;
  }

  function describe(node) {
    var where;
    if (node.w) {
      where = "Ply " + node.p + " refused: " + seatName(node.s) + " played " + node.t + ". " +
        node.w.code + ": " + node.w.message + ". " + node.w.count + " legal moves marked.";
    } else if (node.p) {
      where = "Ply " + node.p + (node.l ? " (variation)" : "") + ": " + seatName(node.s) +
        " played " + node.t + ".";
    } else {
      where = "Start position.";
    }
    var scores = node.sc.length ? " Scores " + node.sc.join(", ") + "." : "";
    var next = node.tm ? " " + seatName(node.tm) + " to move." : " Game over.";
    return where + scores + chances(node) + (node.w ? "" : next);
  }

  // The engine's chances of winning after a main-line ply, as the graph has them.
  function chances(node) {
    var at = graph && node.l === 0 && !node.w ? graph.plies.indexOf(node.p) : -1;
    return at < 0 ? "" : " Chances of winning " + graph.win[at].join(", ") + ".";
  }

  function showFinding(node) {
    findingPanel.textContent = "";
    findingPanel.hidden = !node.w;
    if (!node.w) { return; }
    var title = document.createElement("h3");
    title.appendChild(text("Ply " + node.p + ", seat " + node.s + ", " + node.t + ": " + node.w.code));
    var message = document.createElement("p");
    message.appendChild(text(node.w.message));
    findingPanel.appendChild(title);
    findingPanel.appendChild(message);
    if (node.w.rule) {
      var rule = document.createElement("p");
      rule.className = "rule";
      rule.appendChild(text("Rule: " + node.w.rule));
      findingPanel.appendChild(rule);
    }
    var legal = document.createElement("p");
    legal.className = "legal";
    var more = node.w.count > node.w.legal.length ? " … and " + (node.w.count - node.w.legal.length) + " more" : "";
    legal.appendChild(text(node.w.count ? "Legal here (" + node.w.count + ", dashed rings on the board): " +
      node.w.legal.join(" ") + more : "No legal move here."));
    findingPanel.appendChild(legal);
  }

  function showSeats(node) {
    Array.prototype.forEach.call(rows, function (row) {
      var seat = Number(row.getAttribute("data-seat"));
      var extras = row.querySelectorAll(".extra");
      row.querySelector(".score").textContent = node.sc.length ? node.sc[seat - 1] : "";
      var values = [];
      if (node.su.length) { values.push(node.su[seat - 1]); }
      if (node.ca.length) { values.push(node.ca[seat - 1]); }
      Array.prototype.forEach.call(extras, function (cell, at) { cell.textContent = values[at]; });
      var moving = node.tm === seat && !node.w;
      row.className = moving ? "moving" : "";
      var mark = row.querySelector(".to-move");
      mark.textContent = node.rs.indexOf(seat) >= 0 ? "resigned" : moving ? "▶ to move" : "";
    });
  }

  function showCursor(node) {
    charts.forEach(function (chart) {
      var svg = chart.svg;
      var pad = Number(svg.getAttribute("data-pad")), last = Number(svg.getAttribute("data-last"));
      var width = svg.viewBox.baseVal.width;
      var x = pad + (width - 2 * pad) * Math.min(node.p, last) / last;
      chart.cursor.setAttribute("x1", x.toFixed(1));
      chart.cursor.setAttribute("x2", x.toFixed(1));
    });
  }

  // A click on the win-probability graph goes to the main line's nearest ply.
  function plyAt(svg, event) {
    var box = svg.getBoundingClientRect(), view = svg.viewBox.baseVal;
    var pad = Number(svg.getAttribute("data-pad")), last = Number(svg.getAttribute("data-last"));
    var x = (event.clientX - box.left) * view.width / box.width;
    return Math.max(0, Math.min(last, Math.round((x - pad) / (view.width - 2 * pad) * last)));
  }
  var winGraph = document.getElementById("win-graph");
  if (winGraph) {
    winGraph.addEventListener("click", function (event) {
      var ply = plyAt(winGraph, event);
      var target = lines[0].n.filter(function (number) { return nodes[number].p === ply; })[0];
      if (target !== undefined && target !== current) { show(target, true); }
    });
  }

  // Scroll the move list (not the page: on a phone the list is below the board) to a move.
  function reveal(link) {
    var list = document.getElementById("moves");
    if (!list || list.scrollHeight <= list.clientHeight) { return; }
    var inner = link.getBoundingClientRect(), outer = list.getBoundingClientRect();
    if (inner.top < outer.top) { list.scrollTop += inner.top - outer.top - 8; }
    if (inner.bottom > outer.bottom) { list.scrollTop += inner.bottom - outer.bottom + 8; }
  }

  function show(number, remember) {
    var node = nodes[number];
    var before = document.getElementById("node-" + current);
    if (before) { before.classList.remove("current"); before.removeAttribute("aria-current"); }
    current = number;
    position.innerHTML = node.e.map(function (part) { return parts[part]; }).join("");
    caption.textContent = node.ti;
    status.textContent = describe(node);
    showFinding(node);
    showSeats(node);
    showCursor(node);
    var link = document.getElementById("node-" + number);
    if (link) {
      link.classList.add("current");
      link.setAttribute("aria-current", "step");
      reveal(link);
    }
    Object.keys(buttons).forEach(function (name) { buttons[name].disabled = moves[name](number) < 0 || moves[name](number) === number; });
    document.body.setAttribute("data-node", String(number));
    if (remember && location.hash !== "#" + node.f) {
      try { history.replaceState(null, "", "#" + node.f); } catch (error) { /* a page opened from a sandbox */ }
    }
  }

  function fromFragment() {
    var fields = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      var kv = pair.split("=");
      if (kv.length === 2) { fields[kv[0]] = Number(kv[1]); }
    });
    if (!("ply" in fields)) { return -1; }
    var line = lines[fields.line || 0];
    if (!line) { return -1; }
    for (var at = 0; at < line.n.length; at += 1) {
      if (nodes[line.n[at]].p === fields.ply) { return line.n[at]; }
    }
    return -1;
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var keys = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", ArrowDown: "enter", ArrowUp: "leave"};
    var name = keys[event.key];
    if (!name) { return; }
    event.preventDefault();
    go(name);
  });
  window.addEventListener("hashchange", function () {
    var target = fromFragment();
    if (target >= 0 && target !== current) { show(target, false); }
  });
  var opening = fromFragment();
  show(opening >= 0 ? opening : data.open, false);
}());
