// The page of tools/sdk-proof.sh: Metabase's embedding SDK as its README shows it, with an API key (the SDK's
// development-mode authentication, allowed only on localhost pages) and one <StaticQuestion>. Quarry's address, the
// key and the question id come from the page's query string.
import React from "react";
import { createRoot } from "react-dom/client";
import { MetabaseProvider, StaticQuestion, defineMetabaseAuthConfig } from "@metabase/embedding-sdk-react";

const query = new URLSearchParams(window.location.search);
const authConfig = defineMetabaseAuthConfig({
  metabaseInstanceUrl: query.get("mb"),
  apiKey: query.get("key"),
});

function App() {
  return (
    <MetabaseProvider authConfig={authConfig}>
      <h1>Another site</h1>
      <div style={{ height: 600 }}>
        <StaticQuestion questionId={Number(query.get("q"))} withChartTypeSelector={false} />
      </div>
    </MetabaseProvider>
  );
}

createRoot(document.getElementById("root")).render(<App />);
