// The page GET /demo serves, so the README's walk-through runs without internet: a field and a
// button that greets (something for act to change), a status line (something for extract to read),
// and a link to a section further down (something for observe and scrolling).

export const DEMO_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Deckhand demo</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
  label { display: block; margin-top: 1rem; }
  input, button { font: inherit; padding: 0.3rem 0.6rem; }
  #more { margin-top: 120vh; }
</style>
</head>
<body>
  <h1>Deckhand demo</h1>
  <p>This page is served by the Deckhand server itself, so you can try the service without internet.</p>
  <form id="greet">
    <label for="name">Name</label>
    <input id="name" name="name" placeholder="Your name">
    <button type="submit">Say hello</button>
  </form>
  <p id="greeting" role="status">Nobody has said hello yet.</p>
  <p><a href="#more">Learn more</a></p>
  <section id="more" aria-labelledby="more-title">
    <h2 id="more-title">More</h2>
    <p>act runs a structured Action or a plain instruction, observe finds elements, extract reads the page.</p>
  </section>
  <script>
    document.getElementById('greet').addEventListener('submit', (event) => {
      event.preventDefault();
      const name = document.getElementById('name').value.trim() || 'stranger';
      document.getElementById('greeting').textContent = 'Hello, ' + name + '!';
    });
  </script>
</body>
</html>
`;
