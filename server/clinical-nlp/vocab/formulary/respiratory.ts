/** Antihistamines, asthma and COPD inhalers, cough and cold, nasal sprays. Row format: ../formulary.ts. */
export const RESPIRATORY = `
cetirizine|||tablet,syrup,drops|5,10,5mg/5ml|cetzine,okacet,alerid,zyrtec
levocetirizine|||tablet,syrup|5,2.5mg/5ml|levocet,teczine,xyzal
fexofenadine|||tablet,suspension|30,60,120,180|allegra,fexova,telfast
loratadine|||tablet,syrup|10,5mg/5ml|lorfast,claritin,alavert
desloratadine|||tablet|5|deslor,clarinex,aerius
bilastine|||tablet|20|bilaxten
rupatadine|||tablet|10|
ebastine|||tablet|10,20|
chlorpheniramine|chlorpheniramine|chlorphenamine,cpm|tablet,syrup|2,4|piriton,cadistin,chlor trimeton
pheniramine|||tablet,injection|25,22.75mg/ml|avil
hydroxyzine|||tablet,syrup|10,25,50,10mg/5ml|atarax,vistaril
diphenhydramine|||syrup,capsule,tablet|12.5,25,50|benadryl allergy,benadryl
cyproheptadine|||tablet,syrup|4,2mg/5ml|practin,periactin
promethazine|||tablet,syrup,injection|10,25,5mg/5ml|phenergan
promethazine theoclate|||tablet|25|avomine
ketotifen|||tablet,eye drops|1,0.025%|asthafen,zaditor,alaway
montelukast|||tablet,chewable tablet,granules|4,5,10|montair,romilast,montek,singulair
montelukast + levocetirizine|||tablet,syrup||montair lc,montek lc,romilast l
montelukast + fexofenadine|||tablet||montair fx,allegra m
montelukast + bilastine|||tablet||
fexofenadine + pseudoephedrine|||tablet||allegra d
cetirizine + pseudoephedrine|||tablet||zyrtec d
loratadine + pseudoephedrine|||tablet||claritin d
salbutamol|albuterol|albuterol sulfate|inhaler,rotacap,respules,nebuliser solution,syrup,tablet|2,4,100mcg,200mcg,90mcg,2.5mg/2.5ml,5mg/ml,2mg/5ml|asthalin,ventorlin,proair,proair hfa,ventolin,ventolin hfa,proventil
levosalbutamol|levalbuterol||inhaler,respules,syrup,tablet|50mcg,0.31mg/3ml,0.63mg/3ml,1.25mg/3ml,1mg/5ml|levolin,xopenex
ipratropium|||inhaler,respules|20mcg,500mcg/2ml|ipravent,atrovent
ipratropium + levosalbutamol|||respules,inhaler||duolin
ipratropium + salbutamol|||respules,inhaler||combivent,duoneb,combivent respimat
tiotropium|||inhaler,rotacap|2.5mcg,9mcg,18mcg|tiova,spiriva,spiriva handihaler,spiriva respimat
glycopyrronium|||rotacap,inhaler|50mcg|seebri
tiotropium + olodaterol|||inhaler||stiolto
olodaterol|||inhaler|2.5mcg|striverdi
formoterol|||inhaler,rotacap,respules|6mcg,12mcg,20mcg/2ml|foradil,perforomist
salmeterol|||inhaler|25mcg,50mcg|serevent
vilanterol|||inhaler|25mcg|
umeclidinium|||inhaler|62.5mcg|incruse
umeclidinium + vilanterol|||inhaler||anoro,anoro ellipta
budesonide|||inhaler,rotacap,respules,nasal spray,capsule|100mcg,200mcg,400mcg,64mcg,32mcg,3,9,0.25mg/ml,0.5mg/ml,0.5mg/2ml,1mg/2ml|budecort,pulmicort,pulmicort respules,rhinocort,entocort,uceris
budesonide + formoterol||budesonide formoterol,formoterol budesonide|inhaler,rotacap,respules|100mcg,200mcg,400mcg,80mcg,160mcg|foracort,budamate,symbicort,breyna
fluticasone|||nasal spray,inhaler,cream|50mcg,125mcg,250mcg,0.05%|
fluticasone propionate|||nasal spray,inhaler,cream,ointment|50mcg,44mcg,110mcg,125mcg,220mcg,250mcg,0.05%|flomist,flonase,flutivate,flovent,flovent hfa,cutivate
fluticasone furoate|||nasal spray,inhaler|27.5mcg,100mcg,200mcg|avamys,veramyst,arnuity
fluticasone + salmeterol||fluticasone salmeterol,salmeterol fluticasone|inhaler,rotacap|100mcg,250mcg,500mcg,125mcg|seroflo,advair,advair diskus,wixela
fluticasone furoate + vilanterol|||inhaler||breo,breo ellipta
fluticasone furoate + umeclidinium + vilanterol|||inhaler||trelegy,trelegy ellipta
beclomethasone|||inhaler,nasal spray,cream|50mcg,100mcg,200mcg,40mcg,80mcg,0.025%|beclate,qvar,beconase
beclomethasone + formoterol|||inhaler||fostair
mometasone + formoterol|||inhaler||dulera
ciclesonide|||inhaler,nasal spray|80mcg,160mcg,50mcg|alvesco,omnaris
theophylline|||tablet|100,200,300,400,600|theo 24,uniphyl
theophylline + etofylline|||tablet,injection,syrup||deriphyllin
doxofylline|||tablet|200,400,650|doxovent
acebrophylline|||capsule|100,200|ab phylline
roflumilast|||tablet|250mcg,500mcg|daliresp
guaifenesin|guaifenesin|guaiphenesin|syrup,tablet|100mg/5ml,600,1200|mucinex,robitussin
guaifenesin + dextromethorphan|||syrup,tablet||mucinex dm,robitussin dm
ambroxol|||syrup,tablet,drops|30,75,15mg/5ml,30mg/5ml|mucolite,ambrodil,mucosolvan
bromhexine|||tablet,syrup|8,4mg/5ml|bisolvon
acetylcysteine||n acetylcysteine,nac|tablet,sachet,effervescent tablet,injection|200,600|mucomix,fluimucil
ambroxol + levosalbutamol + guaifenesin|||syrup||ascoril ls,ascoril ls junior
terbutaline + bromhexine + guaifenesin|||syrup,tablet||ascoril,bro zedex
terbutaline|||tablet,syrup|2.5,5|bricanyl
dextromethorphan|||syrup,lozenge|10mg/5ml,15mg/5ml|delsym
dextromethorphan + chlorpheniramine + phenylephrine|||syrup||~alex
codeine + chlorpheniramine|||syrup||corex,phensedyl,tossex
benzonatate|||capsule|100,200|tessalon,tessalon perles
levodropropizine|||syrup,tablet|30mg/5ml,60|
paracetamol + phenylephrine + chlorpheniramine|||tablet,syrup||sinarest,d cold total
paracetamol + phenylephrine + cetirizine|||tablet||cheston cold
paracetamol + dextromethorphan + phenylephrine|||syrup,capsule||dayquil
paracetamol + dextromethorphan + doxylamine|||syrup,capsule||nyquil
pseudoephedrine|||tablet|30,60,120|sudafed
phenylephrine|||tablet,nasal spray|10|sudafed pe
xylometazoline|||nasal drops,nasal spray|0.05%,0.1%|otrivin,otrivine
oxymetazoline|||nasal drops,nasal spray|0.025%,0.05%|nasivion,nasivion s,afrin
sodium chloride||saline nasal drops,saline nasal spray,saline drops,saline spray,normal saline,sodium chloride nasal|nasal drops,nasal spray,injection,nebuliser solution,tablet|0.65%,0.9%,3%,7%|
mometasone|||nasal spray,cream,ointment,lotion|50mcg,0.1%|nasonex,metaspray,elocon,momate
azelastine|||nasal spray,eye drops|137mcg,0.1%,0.05%|azep,astelin,astepro,optivar
azelastine + fluticasone|||nasal spray||duonase,dymista
olopatadine|||eye drops,nasal spray,tablet|0.1%,0.2%,0.7%,665mcg,5|olopat,pataday,patanol,patanase
amylmetacresol|||lozenge|0.6|
dichlorobenzyl alcohol|||lozenge|1.2|
amylmetacresol + dichlorobenzyl alcohol|||lozenge||strepsils
benzydamine|||mouthwash,spray|0.15%|tantum verde
chlorhexidine|||mouthwash,gel,solution|0.12%,0.2%,4%|hexidine,clohex,peridex,hibiscrub
povidone iodine|||solution,gargle,ointment,cream|2%,5%,7.5%,10%|betadine,betadine gargle,wokadine
omalizumab|||injection|150|xolair
dupilumab|||injection|200,300|dupixent
etofylline|||tablet,injection||
`;
