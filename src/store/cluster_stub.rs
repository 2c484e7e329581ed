// TEMPORARY stand-in until cluster.rs lands.
pub struct Cluster;
impl Cluster {
    pub fn start(_dir: &std::path::Path) -> anyhow::Result<Cluster> {
        anyhow::bail!("no cluster yet")
    }
    pub fn start_ephemeral() -> anyhow::Result<Cluster> {
        anyhow::bail!("no cluster yet")
    }
    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:5432/{database}")
    }
    pub fn port(&self) -> u16 {
        5432
    }
    pub fn stop(&mut self) -> anyhow::Result<()> {
        Ok(())
    }
}
