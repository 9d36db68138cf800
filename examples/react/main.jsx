// A React component that releases one private category of the visitor's histogram. The library is loaded once
// (init() returns the same instance to every caller); the sampler is made once per ε and disposed with it.
// Vite compiles the JSX (no plugin needed to build; @vitejs/plugin-react adds fast refresh for development).
import { useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { init } from 'privsample';

const NAMES = ['Walk', 'Bicycle', 'Bus', 'Train', 'Car'];

function usePrivsample() {
  const [state, setState] = useState({ ps: null, error: null });
  useEffect(() => {
    init().then((ps) => setState({ ps, error: null }), (error) => setState({ ps: null, error }));
  }, []);
  return state;
}

function PrivateSample({ counts, epsilon }) {
  const { ps, error } = usePrivsample();
  const sampler = useMemo(() => ps?.sampler('minimax', { epsilon }), [ps, epsilon]);
  useEffect(() => () => sampler?.dispose(), [sampler]);
  const [released, setReleased] = useState(null);

  if (error) return <p><output data-state="error">{`${error.name}: ${error.message}`}</output></p>;
  if (!sampler) return <p>Loading privsample…</p>;
  return (
    <div>
      <p>Your counts: <code>{NAMES.map((n, i) => `${n} ${counts[i]}`).join(', ')}</code></p>
      <button type="button" onClick={() => setReleased(sampler.sample(counts))}>
        Draw one private sample (ε = {epsilon})
      </button>
      <p>
        Released:{' '}
        <output id="result" data-state={released === null ? 'idle' : 'done'}>
          {released === null ? 'nothing yet' : NAMES[released]}
        </output>
      </p>
      <p><small>Guarantee: {JSON.stringify(sampler.guarantee)}. Each draw spends ε again.</small></p>
    </div>
  );
}

createRoot(document.getElementById('root')).render(<PrivateSample counts={[9, 6, 4, 2, 1]} epsilon={1} />);
